/**
 * `npm run soak` (issue #37): the soak (runSoak.ts) from the command line; exits 1 on any problem.
 *
 *   npm run soak                                    2 minutes, 12 servers
 *   npm run soak -- --minutes 10 --servers 50       the release soak (docs/soak.md has its figures)
 *   -- --http N --rounds N --tasks N                askers per kind
 *   -- --mean-ms N --fault-ms N                     question and fault rates
 *   -- --window-faults 0.05 --reload-faults 0.05   the share of faults that open a second window, that reload
 *   -- --profile                                    a CPU profile of the host: whose JavaScript each long block ran
 *   -- --heap                                       a sampling heap profile of the last host: where what it kept was allocated
 *   SOAK_KEEP=1                                     keeps the logs (the path is printed)
 */
import { formatResult, passed, runSoak } from './runSoak';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const servers = option('servers', 12);
const http = Math.min(servers, option('http', Math.ceil(servers / 4)));
const rounds = Math.min(servers - http, option('rounds', Math.ceil(servers / 5)));

runSoak({
  minutes: option('minutes', 2),
  servers,
  http,
  rounds,
  tasks: Math.min(servers - http - rounds, option('tasks', Math.ceil(servers / 10))),
  meanMs: option('mean-ms', 1500),
  faultMs: option('fault-ms', 6000),
  windowFaults: option('window-faults', 0.05),
  reloadFaults: option('reload-faults', 0.05),
  keep: process.env.SOAK_KEEP === '1',
  profile: args.includes('--profile'),
  heap: args.includes('--heap'),
}).then(
  (result) => {
    console.log(formatResult(result));
    process.exitCode = passed(result) ? 0 : 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
