// `npm run admin -- create <username> [--password P]` and `npm run admin -- promote <username>`:
// for operators, besides ADMIN_USERNAME/ADMIN_PASSWORD. Uses the same settings as `npm start`.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { LoginSchema } from '#common/schemas/auth.js';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { ensureAdmin, newAdminNameProblem, promoteAdmin } from '../features/auth/index.js';
import { safeErrorMessage } from '../lib/log-safety.js';

const USAGE =
  'Usage: npm run admin -- create <username> [--password <password>]\n       npm run admin -- promote <username>';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { password: { type: 'string' } },
  });
  const [command, username] = positionals;
  if (!username || (command !== 'create' && command !== 'promote')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    if (command === 'promote') {
      const user = await promoteAdmin(database.db, username);
      if (!user) {
        console.error(`No user named ${username}.`);
        return 1;
      }
      console.log(`${user.username} is now an admin.`);
      return 0;
    }
    const problem = await newAdminNameProblem(database.db, username);
    if (problem) {
      console.error(problem);
      return 1;
    }
    const password = values.password ?? randomBytes(12).toString('base64url');
    const parsed = LoginSchema.safeParse({ username, password });
    if (!parsed.success) {
      console.error(parsed.error.issues.map((issue) => issue.message).join('\n'));
      return 1;
    }
    await ensureAdmin(database.db, parsed.data);
    console.log(`Admin ${parsed.data.username} created.${values.password ? '' : ` Password: ${password}`}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('admin failed:', safeErrorMessage(error));
    process.exit(1);
  },
);
