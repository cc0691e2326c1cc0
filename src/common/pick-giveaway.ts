// Selling only what is still secret (docs/decisions/028): a pick's title and description must not name a
// sealed leg's side with its line or market. One pure function, for the server's rule and the form's live hint.

/** What the detector needs of a leg: the shape of a posted leg and of a sealed one alike. */
export interface GiveawayLeg {
  home: string;
  away: string;
  market: string;
  side: string;
  line: number | null;
}

export type GiveawayField = 'title' | 'description';

const WORD = '[\\p{L}\\p{N}]';
/** Not inside a word: the match starts and ends on word edges (letters, digits, any script). */
const START = `(?<!${WORD})`;
const END = `(?!${WORD})`;

/** Single words too common (or too partial) to stand for a team on their own. */
const NOT_A_TEAM = new Set([
  'new',
  'los',
  'las',
  'san',
  'st',
  'st.',
  'the',
  'fc',
  'cf',
  'sc',
  'ac',
  'city',
  'state',
  'united',
  'real',
  'club',
  'university',
  'college',
  'of',
  'green',
  'golden',
  'over',
  'under',
]);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Spaces in a name match any run of spaces or a hyphen ('Trail Blazers', 'Trail-Blazers'). */
const namePattern = (name: string) => escape(name).replace(/\s+/g, '[\\s-]+');

/**
 * The ways a text names a team as the legs carry it: the whole name, its nickname (last one or two words:
 * 'Knicks', 'Trail Blazers') and its city ('New York', 'Portland'). Lower case.
 */
export function teamAliases(name: string): string[] {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const aliases = new Set<string>([words.join(' ')]);
  if (words.length >= 2) {
    aliases.add(words.slice(-1).join(' '));
    aliases.add(words.slice(0, -1).join(' '));
  }
  if (words.length >= 3) {
    aliases.add(words.slice(-2).join(' '));
    aliases.add(words.slice(0, -2).join(' '));
  }
  return [...aliases]
    .map((alias) => alias.toLowerCase())
    .filter((alias) => alias.replace(/[^\p{L}\p{N}]/gu, '').length >= 2 && !NOT_A_TEAM.has(alias));
}

/** A team's aliases that the other team of its game does not share ('Los Angeles' names neither Lakers nor Clippers). */
function ownAliases(team: string, other: string): string[] {
  const others = new Set(teamAliases(other));
  return teamAliases(team).filter((alias) => !others.has(alias));
}

const alternation = (aliases: readonly string[]) =>
  // Longest first, so 'New York Knicks' is taken whole before 'New York'.
  [...aliases]
    .sort((a, b) => b.length - a.length)
    .map(namePattern)
    .join('|');

/** A line as a text writes it: 211.5, 48 (or 48.0), never part of a longer number. */
function numberPattern(value: number): string {
  const whole = Number.isInteger(value);
  const digits = escape(String(Math.abs(value)));
  return `(?<![\\d.,])${digits}${whole ? '(?:\\.0)?' : ''}(?![\\d\\p{L}]|[.,]\\d|[-–]\\d)`;
}

/** A sign as people type it: ASCII, the minus sign or a dash. */
const SIGN = '[+\\-−–]';
/** A spread or odds figure with its sign: -3.5, +7, -150, (+3.5); not a name's digits ('Bengals–49ers'). */
const SIGNED_NUMBER = `\\(?${SIGN}\\s?\\d+(?:[.,]\\d+)?\\)?(?![\\d\\p{L}])`;
/** Words that name a market next to a team: moneyline, spread, to win, to cover. */
const MARKET_AFTER_TEAM =
  "(?:ML|money[\\s-]?line|moneyline|spread|ATS|against\\s+the\\s+spread|to\\s+win|to\\s+cover|covers?|pk|pick'?em)";
const MARKET_BEFORE_TEAM = '(?:ML|money[\\s-]?line|moneyline|spread|ATS)';
/** Between a team and its market: spaces, a colon or bracket, 'on the'. */
const GAP = '[\\s:(]*(?:(?:on|at)\\s+)?(?:the\\s+)?';
/** 'the under', with the verb that takes it when there is one ('take the under', 'hammer the over'). */
const BACKED =
  '(?:(?:take|taking|took|hammer|hammering|bet|betting|play|playing|like|love|lean|leaning|smash|smashing|pound|pounding|back|backing|ride|riding|on)\\s+)?the';
/** Phrases that name the total without a side: 'O/U 211.5', 'over/under', 'over or under'. */
const NEUTRAL =
  /(?:over\s*[/-]\s*under|under\s*[/-]\s*over|over\s+or\s+under|under\s+or\s+over|\bo\s*\/\s*u\b)/giu;

interface Span {
  start: number;
  end: number;
}

function spansOf(text: string, pattern: string, spans: Span[]): void {
  const regex = new RegExp(pattern, 'giu');
  for (const match of text.matchAll(regex)) {
    if (match[0].trim() === '') continue;
    spans.push({ start: match.index, end: match.index + match[0].length });
  }
}

const isTeamSide = (leg: GiveawayLeg) =>
  (leg.market === 'moneyline' || leg.market === 'spread') &&
  [leg.home, leg.away].some((team) => team.toLowerCase() === leg.side.toLowerCase());

/** A moneyline or spread leg: its team with a market word, a signed line or odds, or 'over' its opponent. */
function teamSideSpans(text: string, leg: GiveawayLeg, spans: Span[]): void {
  const side = leg.side.toLowerCase() === leg.home.toLowerCase() ? leg.home : leg.away;
  const other = side === leg.home ? leg.away : leg.home;
  const aliases = ownAliases(side, other);
  if (!aliases.length) return;
  const team = `${START}(?:${alternation(aliases)})${END}`;
  const markers = [`${MARKET_AFTER_TEAM}${END}`, SIGNED_NUMBER];
  // The leg's own spread without its sign ('Lakers 3.5') pins it as well.
  if (leg.market === 'spread' && leg.line !== null) markers.push(numberPattern(leg.line));
  spansOf(text, `${team}${GAP}(?:${markers.join('|')})`, spans);
  spansOf(text, `${START}${MARKET_BEFORE_TEAM}${GAP}${team}`, spans);
  const opponents = teamAliases(other);
  if (opponents.length)
    spansOf(
      text,
      `${team}\\s+(?:over|to\\s+beat|beats?|tops?|to\\s+top)\\s+(?:the\\s+)?(?:${alternation(opponents)})${END}`,
      spans,
    );
}

/** The over/under word of a side, and its one-letter form ('o211.5', 'u48'). */
function overUnderSpans(text: string, word: 'over' | 'under', line: number | null, spans: Span[]): void {
  if (line !== null) {
    spansOf(text, `${START}${word}\\s*${numberPattern(line)}`, spans);
    spansOf(text, `(?<![\\p{L}\\p{N}/])${word[0]}\\s?${numberPattern(line)}`, spans);
  }
  // 'take the under', 'on the over', 'the over' (not 'the overtime', not 'over-achievers').
  spansOf(text, `${START}${BACKED}\\s+${word}(?![\\p{L}\\p{N}]|-\\p{L})`, spans);
  spansOf(text, `${START}${word}\\s+the\\s+total${END}`, spans);
}

/** A total leg: over/under with its line, or backed ('the under'), or after the game's teams ('Kansas-Duke Over'). */
function totalSpans(text: string, leg: GiveawayLeg, spans: Span[]): void {
  const word = leg.side.toLowerCase();
  if (word !== 'over' && word !== 'under') return;
  overUnderSpans(text, word, leg.line, spans);
  const teams = [...new Set([...teamAliases(leg.home), ...teamAliases(leg.away)])];
  if (!teams.length) return;
  const team = `${START}(?:${alternation(teams)})${END}`;
  // 'Knicks over Celtics' says who wins, not the total: a team after the word is not this.
  spansOf(
    text,
    `${team}(?:\\s*(?:-|vs\\.?|v\\.?|at|@|/|and|&)\\s*${team})?[\\s:(]*(?:the\\s+)?${word}${END}(?!\\s+(?:the\\s+)?(?:${alternation(teams)})${END})`,
    spans,
  );
}

/** A prop or other leg: its own words, or the over/under and number it carries ('over 25.5'). */
function textSideSpans(text: string, leg: GiveawayLeg, spans: Span[]): void {
  const side = leg.side.trim();
  if (side.split(/\s+/).length >= 2 || side.length >= 6)
    spansOf(text, `${START}${namePattern(side)}${END}`, spans);
  const sided = /\b(over|under)\b(?:\s*(\d+(?:\.\d+)?))?/iu.exec(side);
  if (!sided) return;
  const word = sided[1]!.toLowerCase() as 'over' | 'under';
  const line = sided[2] !== undefined ? Number(sided[2]) : leg.line;
  if (line !== null) {
    spansOf(text, `${START}${word}\\s*${numberPattern(line)}`, spans);
    spansOf(text, `(?<![\\p{L}\\p{N}/])${word[0]}\\s?${numberPattern(line)}`, spans);
  }
  // The player (or subject) before the word: 'LeBron James over', 'LeBron over', 'James over'.
  const subject = side.slice(0, sided.index).trim();
  const names = subject ? teamAliases(subject) : [];
  if (names.length) spansOf(text, `${START}(?:${alternation(names)})\\s+${word}${END}`, spans);
}

/**
 * The phrases of `text` that give a leg's side away, as they are written, in order, each once. A side is
 * given away by its team with a market or line ('Knicks ML', 'Lakers -3.5', 'Celtics moneyline'), by a
 * total's side with its line or backed ('Over 211.5', 'u48', 'take the under'), by a prop's own words.
 * The matchup or teams alone, and betting talk without a side, are not.
 */
export function giveawayPhrases(text: string, legs: readonly GiveawayLeg[]): string[] {
  if (!text || !legs.length) return [];
  // Neutral phrases are blanked (same length, so positions hold) before any side is looked for.
  const scanned = text.replace(NEUTRAL, (match) => ' '.repeat(match.length));
  const spans: Span[] = [];
  for (const leg of legs) {
    if (isTeamSide(leg)) teamSideSpans(scanned, leg, spans);
    else if (leg.market === 'total') totalSpans(scanned, leg, spans);
    else textSideSpans(scanned, leg, spans);
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  const phrases: string[] = [];
  const seen = new Set<string>();
  for (const span of merged) {
    const phrase = text
      .slice(span.start, span.end)
      .replace(/^[\s:(]+|[\s:(]+$/g, '')
      .replace(/\s+/g, ' ');
    const key = phrase.toLowerCase();
    if (!phrase || seen.has(key)) continue;
    seen.add(key);
    phrases.push(phrase);
  }
  return phrases;
}

/** The message for a field whose words give the pick away: which words, and what to do instead. */
export function giveawayMessage(field: GiveawayField, phrases: readonly string[]): string {
  const quoted = phrases.map((phrase) => `"${phrase}"`).join(', ');
  return `The ${field} gives the pick away: ${quoted}. Describe the pick without its side, line or market.`;
}

/** Whether a message is this rule's (a form shows it live instead, beside the field). */
export function isGiveawayMessage(message: string | undefined): boolean {
  return message !== undefined && / gives the pick away: /.test(message);
}

/** The first field that gives the pick away, with its words and message; null when none does (or no legs). */
export function pickGiveaway(
  fields: Partial<Record<GiveawayField, string | undefined>>,
  legs: readonly GiveawayLeg[],
): { field: GiveawayField; phrases: string[]; message: string } | null {
  if (!legs.length) return null;
  for (const field of ['title', 'description'] as const) {
    const phrases = giveawayPhrases(fields[field] ?? '', legs);
    if (phrases.length) return { field, phrases, message: giveawayMessage(field, phrases) };
  }
  return null;
}
