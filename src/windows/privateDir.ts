/**
 * The per-user directory the windows meet in: mode 0700 and owned by this user
 * (a directory someone else made, or opened up, is refused rather than used),
 * with the shared key in a 0600 file. Another user can neither list the
 * windows' sockets nor connect to them, nor prove the key.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const KEY_FILE = 'key';
const KEY_BYTES = 32;
const posix = process.platform !== 'win32';

/** Creates the directory (or checks the one there) and returns the key, creating it once. */
export async function openPrivateDir(dir: string): Promise<Buffer> {
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  if (posix) {
    const stat = await fs.promises.lstat(dir);
    if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
    if (stat.uid !== process.getuid?.()) throw new Error(`${dir} belongs to another user`);
    if ((stat.mode & 0o077) !== 0) await fs.promises.chmod(dir, 0o700);
  }
  return readOrCreateKey(path.join(dir, KEY_FILE));
}

async function readOrCreateKey(file: string): Promise<Buffer> {
  const existing = await readKey(file);
  if (existing) return existing;
  // Written whole under another name, then linked: a window starting at the same time never reads half a key.
  const draft = `${file}.${randomBytes(8).toString('hex')}`;
  await fs.promises.writeFile(draft, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  try {
    await fs.promises.link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.promises.rm(draft, { force: true });
  }
  const key = await readKey(file);
  if (!key) throw new Error(`${file} could not be read`);
  return key;
}

async function readKey(file: string): Promise<Buffer | undefined> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stat.isFile() || stat.size !== KEY_BYTES) throw new Error(`${file} is not a key Elicit made`);
  if (posix && (stat.uid !== process.getuid?.() || (stat.mode & 0o077) !== 0)) throw new Error(`${file} is readable by others`);
  return fs.promises.readFile(file);
}
