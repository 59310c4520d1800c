/**
 * Names the JavaScript frames of heaptrack_print's output (`0x7f… in ??`) from the perf map V8
 * writes with --perf-basic-prof (test/soak/nativeHeap/run.sh):
 *
 *   npx tsx test/soak/nativeHeap/frames.ts /tmp/perf-PID.map peaks.txt
 */
import fs from 'node:fs';

interface CodeRange {
  start: bigint;
  end: bigint;
  name: string;
}

/** The map's lines: start and size in hex, then the name; later lines win where code was replaced. */
export function readPerfMap(text: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (!match) continue;
    const start = BigInt('0x' + match[1]);
    ranges.push({ start, end: start + BigInt('0x' + match[2]), name: match[3] });
  }
  return ranges;
}

/** The name of the code at an address: the last line of the map that covers it. */
export function nameAt(ranges: CodeRange[], address: bigint): string | undefined {
  for (let i = ranges.length - 1; i >= 0; i--) if (ranges[i].start <= address && address < ranges[i].end) return ranges[i].name;
  return undefined;
}

export function nameFrames(output: string, ranges: CodeRange[]): string {
  const lines = output.split('\n');
  const named: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const frame = /^(\s*)0x([0-9a-f]+)$/.exec(lines[i]);
    if (frame && /^\s*in \?\?$/.test(lines[i + 1] ?? '')) {
      const address = BigInt('0x' + frame[2]);
      named.push(frame[1] + (nameAt(ranges, address) ?? '0x' + frame[2]));
      i++;
    } else {
      named.push(lines[i]);
    }
  }
  return named.join('\n');
}

if (process.argv[1]?.endsWith('frames.ts')) {
  const [map, output] = process.argv.slice(2);
  process.stdout.write(nameFrames(fs.readFileSync(output, 'utf8'), readPerfMap(fs.readFileSync(map, 'utf8'))));
}
