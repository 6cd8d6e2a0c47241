/**
 * CPU time of processes from Linux's /proc: the BFF's own process, and PostgreSQL's (the
 * postmaster and every backend it forked). The parsing and summing are pure (bench.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ on Linux: /proc/<pid>/stat counts CPU time in these. */
export const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** Ticks in user and kernel mode, this process's threads. */
  utime: number;
  stime: number;
  /** Ticks of children this process has waited for (reaped), user and kernel mode. */
  cutime: number;
  cstime: number;
}

/**
 * Reads one /proc/<pid>/stat line. The command name (field 2) is in parentheses and may hold
 * spaces or parentheses itself, so the fields are counted from the last ')'.
 */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 1 || close < open)
    throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(text.slice(0, 80))}`);
  const pid = Number(text.slice(0, open).trim());
  // Field 3 (state) is rest[0]; ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number) => {
    const value = Number(rest[n - 3]);
    if (!Number.isFinite(value)) throw new Error(`field ${n} of /proc/${pid}/stat is not a number`);
    return value;
  };
  if (!Number.isInteger(pid) || rest.length < 15) {
    throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return {
    pid,
    comm: text.slice(open + 1, close),
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
  };
}

/**
 * PostgreSQL's CPU ticks: the postmaster's own, those of the backends it has already reaped
 * (its cutime + cstime), and those of its live children. A backend that exits between two
 * readings moves from the last sum to the second, so the difference of two readings is the
 * cluster's CPU time in between.
 */
export function postgresTicks(postmasterPid: number, processes: readonly ProcStat[]): number {
  const postmaster = processes.find((p) => p.pid === postmasterPid);
  if (!postmaster) throw new Error(`PostgreSQL's postmaster (pid ${postmasterPid}) is not running`);
  let ticks = postmaster.utime + postmaster.stime + postmaster.cutime + postmaster.cstime;
  for (const p of processes) if (p.ppid === postmasterPid) ticks += p.utime + p.stime;
  return ticks;
}

/** Milliseconds of CPU per request, from a difference of ticks; undefined without requests. */
export function cpuMsPerRequest(ticks: number, requests: number): number | undefined {
  if (requests <= 0) return undefined;
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND / requests;
}

export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone (a backend exited while we looked)
  }
}

/** A process's own CPU ticks (user + kernel, all its threads). */
export function processTicks(pid: number): number {
  const stat = readProcStat(pid);
  if (!stat) throw new Error(`process ${pid} is not running`);
  return stat.utime + stat.stime;
}

/** Every process's stat now. */
export function allProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** PostgreSQL's CPU ticks now (see postgresTicks). */
export function readPostgresTicks(postmasterPid: number): number {
  return postgresTicks(postmasterPid, allProcesses());
}
