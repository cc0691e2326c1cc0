// Team colours and short names for the demo's clips and titles: the clubs the demo's history and the market
// stand-in use, by their nickname (the last word, or the last two for 'Red Sox' and the like). A team not
// listed gets two colours drawn from its name, so every clip still has two.

/** Nicknames of two words: 'Boston Red Sox' is the Red Sox, not the Sox. */
const TWO_WORD = new Set([
  'Trail Blazers',
  'Red Sox',
  'White Sox',
  'Blue Jays',
  'Maple Leafs',
  'Golden Knights',
  'Blue Jackets',
  'Red Wings',
  'Crimson Tide',
  'Tar Heels',
  'Blue Devils',
]);

/** 'New York Knicks' → 'Knicks'; a short name is kept as it is. */
export function shortTeamName(name: string): string {
  const words = name.split(' ');
  if (words.length <= 1) return name;
  const two = words.slice(-2).join(' ');
  return TWO_WORD.has(two) ? two : words.at(-1)!;
}

// prettier-ignore
const COLOURS: Record<string, [string, string]> = {
  // NBA
  Hawks: ['0xC8102E', '0xFDB927'], Celtics: ['0x007A33', '0xBA9653'], Nets: ['0x111111', '0xFFFFFF'],
  Hornets: ['0x1D1160', '0x00788C'], Bulls: ['0xCE1141', '0x111111'], Cavaliers: ['0x860038', '0xFDBB30'],
  Mavericks: ['0x00538C', '0xB8C4CA'], Nuggets: ['0x0E2240', '0xFEC524'], Pistons: ['0xC8102E', '0x1D42BA'],
  Warriors: ['0x1D428A', '0xFFC72C'], Rockets: ['0xCE1141', '0xC4CED4'], Pacers: ['0x002D62', '0xFDBB30'],
  Clippers: ['0xC8102E', '0x1D428A'], Lakers: ['0x552583', '0xFDB927'], Grizzlies: ['0x5D76A9', '0x12173F'],
  Heat: ['0x98002E', '0xF9A01B'], Bucks: ['0x00471B', '0xEEE1C6'], Timberwolves: ['0x0C2340', '0x78BE20'],
  Pelicans: ['0x0C2340', '0xC8102E'], Knicks: ['0x006BB6', '0xF58426'], Thunder: ['0x007AC1', '0xEF3B24'],
  Magic: ['0x0077C0', '0xC4CED4'], '76ers': ['0x006BB6', '0xED174C'], Suns: ['0x1D1160', '0xE56020'],
  'Trail Blazers': ['0xE03A3E', '0x111111'], Kings: ['0x5A2D81', '0x63727A'], Spurs: ['0x111111', '0xC4CED4'],
  Raptors: ['0xCE1141', '0x111111'], Jazz: ['0x002B5C', '0xF9A01B'], Wizards: ['0x002B5C', '0xE31837'],
  // NFL
  Cardinals: ['0x97233F', '0xFFB612'], Falcons: ['0xA71930', '0x111111'], Ravens: ['0x241773', '0x9E7C0C'],
  Bills: ['0x00338D', '0xC60C30'], Panthers: ['0x0085CA', '0x101820'], Bears: ['0x0B162A', '0xC83803'],
  Bengals: ['0xFB4F14', '0x111111'], Browns: ['0x311D00', '0xFF3C00'], Cowboys: ['0x003594', '0x869397'],
  Broncos: ['0xFB4F14', '0x002244'], Lions: ['0x0076B6', '0xB0B7BC'], Packers: ['0x203731', '0xFFB612'],
  Texans: ['0x03202F', '0xA71930'], Colts: ['0x002C5F', '0xA2AAAD'], Jaguars: ['0x006778', '0xD7A22A'],
  Chiefs: ['0xE31837', '0xFFB81C'], Raiders: ['0x111111', '0xA5ACAF'], Chargers: ['0x0080C6', '0xFFC20E'],
  Rams: ['0x003594', '0xFFA300'], Dolphins: ['0x008E97', '0xFC4C02'], Vikings: ['0x4F2683', '0xFFC62F'],
  Patriots: ['0x002244', '0xC60C30'], Saints: ['0x101820', '0xD3BC8D'], Giants: ['0x0B2265', '0xA71930'],
  Jets: ['0x125740', '0xFFFFFF'], Eagles: ['0x004C54', '0xA5ACAF'], Steelers: ['0x101820', '0xFFB612'],
  '49ers': ['0xAA0000', '0xB3995D'], Seahawks: ['0x002244', '0x69BE28'], Buccaneers: ['0xD50A0A', '0x34302B'],
  Titans: ['0x0C2340', '0x4B92DB'], Commanders: ['0x5A1414', '0xFFB612'],
  // MLB
  Diamondbacks: ['0xA71930', '0xE3D4AD'], Athletics: ['0x003831', '0xEFB21E'], Braves: ['0xCE1141', '0x13274F'],
  Orioles: ['0xDF4601', '0x111111'], 'Red Sox': ['0xBD3039', '0x0C2340'], Cubs: ['0x0E3386', '0xCC3433'],
  'White Sox': ['0x27251F', '0xC4CED4'], Reds: ['0xC6011F', '0x111111'], Guardians: ['0x00385D', '0xE50022'],
  Rockies: ['0x33006F', '0xC4CED4'], Tigers: ['0x0C2340', '0xFA4616'], Astros: ['0x002D62', '0xEB6E1F'],
  Royals: ['0x004687', '0xBD9B60'], Angels: ['0xBA0021', '0x003263'], Dodgers: ['0x005A9C', '0xEF3E42'],
  Marlins: ['0x00A3E0', '0xEF3340'], Brewers: ['0x12284B', '0xFFC52F'], Twins: ['0x002B5C', '0xD31145'],
  Mets: ['0x002D72', '0xFF5910'], Yankees: ['0x0C2340', '0xC4CED3'], Phillies: ['0xE81828', '0x002D72'],
  Pirates: ['0x27251F', '0xFDB827'], Padres: ['0x2F241D', '0xFFC425'], Mariners: ['0x0C2C56', '0x005C5C'],
  Rays: ['0x092C5C', '0x8FBCE6'], Rangers: ['0x003278', '0xC0111F'], 'Blue Jays': ['0x134A8E', '0xE8291C'],
  Nationals: ['0xAB0003', '0x14225A'],
  // NHL
  Ducks: ['0xF47A38', '0x111111'], Bruins: ['0xFFB81C', '0x111111'], Sabres: ['0x003087', '0xFFB81C'],
  Flames: ['0xC8102E', '0xF1BE48'], Hurricanes: ['0xCC0000', '0x111111'], Blackhawks: ['0xCF0A2C', '0x111111'],
  Avalanche: ['0x6F263D', '0x236192'], 'Blue Jackets': ['0x002654', '0xCE1126'], Stars: ['0x006847', '0x8F8F8C'],
  'Red Wings': ['0xCE1126', '0xFFFFFF'], Oilers: ['0x041E42', '0xFF4C00'], Wild: ['0x154734', '0xA6192E'],
  Canadiens: ['0xAF1E2D', '0x192168'], Predators: ['0xFFB81C', '0x041E42'], Devils: ['0xCE1126', '0x111111'],
  Islanders: ['0x00539B', '0xF47D30'], Senators: ['0xC52032', '0xC2912C'], Flyers: ['0xF74902', '0x111111'],
  Penguins: ['0x111111', '0xFCB514'], Sharks: ['0x006D75', '0xEA7200'], Kraken: ['0x001628', '0x99D9D9'],
  Blues: ['0x002F87', '0xFCB514'], Lightning: ['0x002868', '0xFFFFFF'], 'Maple Leafs': ['0x00205B', '0xFFFFFF'],
  Mammoth: ['0x6CACE4', '0x111111'], Canucks: ['0x00205B', '0x00843D'], 'Golden Knights': ['0xB4975A', '0x333F42'],
  Capitals: ['0x041E42', '0xC8102E'], 'Winnipeg Jets': ['0x041E42', '0x004C97'],
  'New York Rangers': ['0x0038A8', '0xCE1126'], 'St. Louis Cardinals': ['0xC41E3A', '0x0C2340'],
  'Florida Panthers': ['0xC8102E', '0x041E42'], 'Los Angeles Kings': ['0x111111', '0xA2AAAD'],
  'San Francisco Giants': ['0xFD5A1E', '0x27251F'],
  // College and soccer (the demo's history)
  Duke: ['0x003087', '0xFFFFFF'], 'North Carolina': ['0x7BAFD4', '0x13294B'], Kansas: ['0x0051BA', '0xE8000D'],
  Kentucky: ['0x0033A0', '0xFFFFFF'], Houston: ['0xC8102E', '0xFFFFFF'], Gonzaga: ['0x041E42', '0xC8102E'],
  Arsenal: ['0xEF0107', '0xFFFFFF'], Chelsea: ['0x034694', '0xFFFFFF'], Liverpool: ['0xC8102E', '0x00B2A9'],
  'Manchester City': ['0x6CABDD', '0x1C2C5B'], 'Real Madrid': ['0xFEBE10', '0x00529F'],
  Barcelona: ['0xA50044', '0x004D98'], 'Bayern Munich': ['0xDC052D', '0x0066B2'], Inter: ['0x010E80', '0x111111'],
};

/** Two colours from a name: a hue from its letters, deep and light. */
function drawnColours(name: string): [string, string] {
  let hash = 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  const hue = Math.abs(hash) % 360;
  const hex = (l: number, s: number) => {
    const a = s * Math.min(l, 1 - l);
    const f = (n: number) => {
      const k = (n + hue / 30) % 12;
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return `0x${[f(0), f(8), f(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  };
  return [hex(0.32, 0.65), hex(0.7, 0.7)];
}

/** A team's main and second colour, as ffmpeg takes them (0xRRGGBB). */
export function teamColours(name: string): [string, string] {
  return COLOURS[name] ?? COLOURS[shortTeamName(name)] ?? drawnColours(name);
}
