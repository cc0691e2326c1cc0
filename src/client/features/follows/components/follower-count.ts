/** "1 follower", "1,234 followers": grouped as the rest of the site writes counts. */
export function formatFollowers(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'follower' : 'followers'}`;
}
