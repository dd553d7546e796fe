#!/usr/bin/env python3
"""Runs selfie-capture on a pseudo-terminal for Benchmarks/speed.sh (issue #16) and measures
what a person at a terminal sees: time to the first screen, CPU share of one core on a screen,
and the run's result.json (camera-to-screen latency).

  pty_run.py first-screen BIN CACHE_DIR
      ms from just before fork+exec to the first screen on the terminal (the loading screen's
      title "Getting", or the instructions' "Record" when they come first),
      and to the instructions screen ("Record"); then q. Prints "first_ms N instructions_ms M".
  pty_run.py version BIN RUNS
      BIN --version RUNS times, started as first-screen starts the app (fork+exec on a pty): ms
      from just before fork+exec to the exit (waitpid), and the CPU time (user+sys from wait4,
      in us, not the 10 ms ticks of /usr/bin/time). Prints "version_ms MEDIAN spread S cpu_ms
      MEDIAN cpu_min M runs R1,R2,...".
  pty_run.py libs BIN CACHE_DIR
      the shared libraries mapped in the process (distinct `.so` paths of /proc/PID/maps) when
      the first screen (the loading screen's title "Getting" or the instructions) is on the terminal, and when the
      instructions ("Record", models ready) are; then q. Prints "first_libs N instructions_libs M".
  pty_run.py waiting BIN SECONDS
      the instructions screen, then the permission screen (Enter), each held SECONDS after it
      shows: CPU share of one core from /proc/PID/stat (utime+stime, clock ticks) over that
      window. Prints "instructions_cpu P permission_cpu Q" (percent).
  pty_run.py capture BIN CLIP OUT EVENTS HOLD
      a realtime capture of CLIP (--loop): CPU share on the capture screen over HOLD seconds
      from cameraReady + 0.5 s (no Start), then s; waits for outputSaved, CPU share on the result
      screen over HOLD seconds, then q. Prints "capture_cpu P result_cpu Q".
  pty_run.py positioning BIN CLIP HOLD
      the capture screen on CLIP (--loop) without Start: CPU share over HOLD seconds from
      cameraReady + 0.5 s, then q. Prints "capture_cpu P".
The terminal is 100x30, TERM=xterm-256color, LANG=C.UTF-8; the output is read (and dropped) as
fast as it comes, as a terminal would, and the primary device attributes query (DA1, CSI c: the
last of the app's start-up probe) is answered as a VT220-class terminal without graphics answers
it (CSI ? 62 ; 22 c), since every terminal does; the other queries get no answer. $PREVIEW_MODE,
when set, is passed as --preview-mode.
"""
import os, pty, select, signal, struct, sys, time, fcntl, termios

TICK = os.sysconf("SC_CLK_TCK")

def spawn(argv, env_extra):
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", COLORTERM="")
    env.pop("NO_COLOR", None)
    env.update(env_extra)
    if os.environ.get("PREVIEW_MODE"):
        argv = argv + ["--preview-mode", os.environ["PREVIEW_MODE"]]
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.execve(argv[0], argv, env)
    return pid, fd, t0

class Term:
    def __init__(self, pid, fd):
        self.pid, self.fd, self.buf, self.alive = pid, fd, b"", True
    def pump(self, timeout):
        """Reads what is there within `timeout` s; keeps the last 64 KiB."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.alive = False
            if b"\x1b[c" in (self.buf[-2:] + data):
                try:
                    os.write(self.fd, b"\x1b[?62;22c")
                except OSError:
                    pass
            self.buf = (self.buf + data)[-65536:]
    def wait_for(self, needle, limit):
        end = time.monotonic() + limit
        while self.alive and time.monotonic() < end:
            if needle in self.buf:
                return time.monotonic()
            self.pump(0.005)
        return time.monotonic() if needle in self.buf else None
    def wait_for_any(self, needles, limit):
        """The time the first of `needles` is on the terminal (None: none within `limit` s)."""
        end = time.monotonic() + limit
        while self.alive and time.monotonic() < end:
            if any(n in self.buf for n in needles):
                return time.monotonic()
            self.pump(0.005)
        return time.monotonic() if any(n in self.buf for n in needles) else None
    def drain(self, seconds):
        end = time.monotonic() + seconds
        while self.alive and time.monotonic() < end:
            self.pump(min(0.05, max(0, end - time.monotonic())))
    def cpu_ticks(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])   # utime, stime (fields 14, 15)
    def cpu_share(self, seconds):
        """Percent of one core used over the next `seconds` (output drained meanwhile)."""
        c0, t0 = self.cpu_ticks(), time.monotonic()
        self.drain(seconds)
        c1, t1 = self.cpu_ticks(), time.monotonic()
        return 100.0 * (c1 - c0) / TICK / (t1 - t0)
    def finish(self, key=b"q", limit=10):
        try:
            os.write(self.fd, key)
        except OSError:
            pass
        end = time.monotonic() + limit
        while time.monotonic() < end:
            p, _ = os.waitpid(self.pid, os.WNOHANG)
            if p:
                return
            self.pump(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

def events_has(path, name):
    try:
        with open(path) as f:
            return f'"event":"{name}"' in f.read()
    except OSError:
        return False

def wait_event(term, path, name, limit):
    end = time.monotonic() + limit
    while term.alive and time.monotonic() < end:
        if events_has(path, name):
            return True
        term.pump(0.02)
    return events_has(path, name)

def main():
    mode = sys.argv[1]
    if mode == "first-screen":
        binary, cache = sys.argv[2], sys.argv[3]
        pid, fd, t0 = spawn([binary, "--source", "demo"], {"SELFIE_CAPTURE_CACHE_DIR": cache})
        t = Term(pid, fd)
        # The first screen is the loading screen ("Getting") or, when the instructions need no
        # model, the instructions ("Record"), whichever comes first.
        first = t.wait_for_any((b"Getting", b"Record"), 20)
        instr = t.wait_for(b"Record", 30)
        t.finish()
        ms = lambda x: -1 if x is None else (x - t0) * 1000
        print(f"first_ms {ms(first):.1f} instructions_ms {ms(instr):.1f}")
    elif mode == "version":
        binary, runs = sys.argv[2], int(sys.argv[3])
        wall, cpu = [], []
        for _ in range(runs):
            pid, fd, t0 = spawn([binary, "--version"], {})
            t = Term(pid, fd)
            while t.alive:
                t.pump(0.05)
            _, _, ru = os.wait4(pid, 0)
            wall.append((time.monotonic() - t0) * 1000)
            cpu.append((ru.ru_utime + ru.ru_stime) * 1000)
            os.close(fd)
        import statistics
        print(f"version_ms {statistics.median(wall):.1f} spread {max(wall) - min(wall):.1f} cpu_ms {statistics.median(cpu):.1f} "
              f"cpu_min {min(cpu):.1f} runs {','.join(f'{w:.1f}' for w in wall)}")
    elif mode == "libs":
        binary, cache = sys.argv[2], sys.argv[3]
        pid, fd, t0 = spawn([binary, "--source", "demo"], {"SELFIE_CAPTURE_CACHE_DIR": cache})
        t = Term(pid, fd)
        def libs():
            try:
                with open(f"/proc/{pid}/maps") as f:
                    return len({l.split()[-1] for l in f if ".so" in l.rsplit("/", 1)[-1]})
            except OSError:
                return -1
        first = libs() if t.wait_for_any((b"Getting", b"Record"), 20) is not None else -1
        instr = libs() if t.wait_for(b"Record", 30) is not None else -1
        t.finish()
        print(f"first_libs {first} instructions_libs {instr}")
    elif mode == "waiting":
        binary, secs = sys.argv[2], float(sys.argv[3])
        pid, fd, _ = spawn([binary, "--source", "demo"], {})
        t = Term(pid, fd)
        if t.wait_for(b"Record", 30) is None:
            t.finish(); sys.exit("instructions screen never showed")
        t.drain(0.5)
        a = t.cpu_share(secs)
        os.write(fd, b"\r")
        if t.wait_for(b"Camera access", 10) is None:
            t.finish(); sys.exit("permission screen never showed")
        t.drain(0.5)
        b = t.cpu_share(secs)
        t.finish()
        print(f"instructions_cpu {a:.2f} permission_cpu {b:.2f}")
    elif mode == "capture":
        binary, clip, out, events, hold = sys.argv[2:7]
        hold = float(hold)
        pid, fd, _ = spawn([binary, "--source", clip, "--loop", "--pace", "realtime", "--no-instructions", "--camera-consent",
                            "--output", out, "--events", events], {})
        t = Term(pid, fd)
        if not wait_event(t, events, "cameraReady", 60):
            t.finish(); sys.exit("cameraReady never came")
        t.drain(0.5)
        cap = t.cpu_share(hold)
        os.write(fd, b"s")
        if not wait_event(t, events, "outputSaved", 120):
            t.finish(); sys.exit("the capture did not record (no outputSaved)")
        t.drain(0.5)
        res = t.cpu_share(hold)
        t.finish()
        print(f"capture_cpu {cap:.2f} result_cpu {res:.2f}")
    elif mode == "positioning":
        binary, clip, hold = sys.argv[2], sys.argv[3], float(sys.argv[4])
        events = clip + ".events.jsonl"
        pid, fd, _ = spawn([binary, "--source", clip, "--loop", "--pace", "realtime", "--no-instructions", "--camera-consent",
                            "--events", events], {})
        t = Term(pid, fd)
        if not wait_event(t, events, "cameraReady", 60):
            t.finish(); sys.exit("cameraReady never came")
        t.drain(0.5)
        cap = t.cpu_share(hold)
        t.finish()
        print(f"capture_cpu {cap:.2f}")
    else:
        sys.exit(f"unknown mode {mode}")

if __name__ == "__main__":
    main()
