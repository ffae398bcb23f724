// Imported first by every entry point (API, worker, CLI): some modules read the environment while
// they load, so `.env` has to be in process.env before anything else is imported. Node's own parser
// (no dependency); a variable already set in the real environment is never overwritten by the file.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const file = resolve(process.cwd(), '.env');
if (existsSync(file)) process.loadEnvFile(file);
