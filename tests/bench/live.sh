#!/bin/sh
# tests/bench/live.sh — what a user waits for in live debugging (issue
# 14), with the real console and a private paravtd on loopback.
# NPROCS (default 64) copies of tests/bench/progs/spin.c run on one node:
# NPROCS `run` commands, since `run` starts one process per node and keeps
# the processes of earlier runs that still run.  Then ROUNDS (default 5)
# times:
#   1. while they run, `break spin.c:LINE`: the time from issuing it to
#      the console printing the first stop, and the last of the NPROCS
#      stops (stop-mode all, the default: whoever has not reached the
#      breakpoint is stopped by the console at its next statement);
#   2. STEPS (default 20) `step` commands on the current process, one at a
#      time: the time from issuing one to its stop line;
#   3. delete, continue: all of them run again.
# Printed: median, min and max of each.  The console runs in batch mode
# reading its commands from a pipe; a perl driver (Time::HiRes) writes
# each command and timestamps the console's output lines as they arrive,
# so a figure is what a user at the prompt waits for (parsing, the round
# trip to the daemon, the program reaching a statement, the printing).
# spin naps between rounds of work, so that NPROCS copies do not fill the
# cores (the console and the daemon share them).  Exits 1 only when the
# session failed (a stop that never came), 0 with a message when
# something is not built or perl lacks Time::HiRes.
#
#   tests/bench/live.sh [NPROCS [ROUNDS [STEPS]]]
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
NPROCS=${1:-64}
ROUNDS=${2:-5}
STEPS=${3:-20}
BIN=$TOP/build/linux-x86_64/bin
for f in "$BIN/paravt" "$BIN/paravtd"; do
	[ -x "$f" ] || { echo "live: skipped ($f not built)"; exit 0; }
done
perl -MTime::HiRes -e 1 2>/dev/null ||
	{ echo "live: skipped (no perl with Time::HiRes)"; exit 0; }
tmp=$(mktemp -d /tmp/pvt-live-XXXXXX) || exit 2
dpid="" cpid=""

# Stops the driver (and with it the console) and the daemon by their PIDs,
# TERM then KILL, each within 3 s; the daemon kills the processes it ran.
stop_pid() {
	kill "$1" 2>/dev/null || return 0
	_i=0
	while kill -0 "$1" 2>/dev/null && [ "$_i" -lt 30 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
cleanup() {
	[ -n "$cpid" ] && stop_pid "$cpid"
	[ -n "$dpid" ] && stop_pid "$dpid"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -m 700 "$tmp/home"
HOME=$tmp/home "$BIN/paravtd" --listen 127.0.0.1:0 --port-file "$tmp/port" \
	--name n1 --log "$tmp/d.log" &
dpid=$!
i=0; while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/port" ] || { echo "live: FAILED, paravtd did not start"; cat "$tmp/d.log"; exit 1; }
cp tests/bench/progs/spin.c "$tmp/"
LINE=$(grep -n '/\* BENCH:break \*/' "$tmp/spin.c" | cut -d: -f1)
[ -n "$LINE" ] || { echo "live: no BENCH:break line in spin.c"; exit 1; }

# The driver: argv PARAVT PORT LINE NPROCS ROUNDS STEPS, in the temp dir.
cat >"$tmp/drive.pl" <<'EOF'
use strict;
use warnings;
use IPC::Open3;
use IO::Select;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my ($paravt, $port, $line, $nprocs, $rounds, $steps) = @ARGV;
my @log;          # every line the console printed, for a failure
my $buf = '';     # what was read and is not a whole line yet
my $eof = 0;
$SIG{ALRM} = sub { fail("the whole session took over 600 s") };
alarm 600;
$SIG{PIPE} = 'IGNORE';
my $pid = open3(my $in, my $out, undef, $paravt, '-n');
$SIG{TERM} = $SIG{INT} = sub { kill 'TERM', $pid; exit 1 };
$in->autoflush(1);
my $sel = IO::Select->new($out);

sub now { clock_gettime(CLOCK_MONOTONIC) }

sub fail {
	print "live: FAILED: $_[0]; the console's last lines:\n";
	print "  $_\n" for @log[($#log > 30 ? $#log - 30 : 0) .. $#log];
	kill 'TERM', $pid;
	exit 1;
}

# The next whole line and the time it arrived, or () after secs or EOF.
sub next_line {
	my ($secs) = @_;
	my $end = now() + $secs;
	while (1) {
		if ($buf =~ s/^([^\n]*)\n//) {
			push @log, $1;
			return ($1, now());
		}
		return () if $eof;
		my $left = $end - now();
		return () if $left <= 0;
		next unless $sel->can_read($left);
		my $n = sysread($out, $buf, 65536, length $buf);
		$eof = 1 if !$n;
	}
}

# Reads lines until one matches re; its time, or fails naming what.
sub wait_for {
	my ($re, $secs, $what) = @_;
	while (my ($l, $t) = next_line($secs)) {
		return $t if $l =~ $re;
	}
	fail("no $what within $secs s");
}

# Waits until a "[still running ...]" line names p$nprocs (a start may
# come late): sends "wait --timeout 0.2" up to 50 times.
sub all_running {
	for (1 .. 50) {
		print $in "wait --timeout 0.2\n";
		wait_for(qr/^\[still running after /, 30, "end of a wait");
		return if $log[-1] =~ / p$nprocs;/;
	}
	fail("$nprocs processes are not all running");
}

# min, median and max of the list, as text.
sub spread {
	my @v = sort { $a <=> $b } @_;
	my $m = @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
	return sprintf "%6.2f ms median of %d (min %.2f, max %.2f", $m,
		       scalar @v, $v[0], $v[-1];
}

# Set-up: NPROCS runs, each waiting a moment (the processes go on) and
# printing one "[still running ...]" line.
print $in "node add n1 127.0.0.1:$port\nload spin.c\nbuild\n";
wait_for(qr/^build on n1: ok$/, 120, "successful build");
print $in "run --timeout 0.01 -- 300\n" for 1 .. $nprocs;
wait_for(qr/^\[still running after /, 60, "end of run $_") for 1 .. $nprocs;
all_running();

my (@first, @last, @step);
my $nbp = 0;      # stops at the breakpoint (the others: by the console)
for my $r (1 .. $rounds) {
	select(undef, undef, undef, 0.5);   # all of them in their loop
	# 1. Arm a breakpoint; the first stop; all NPROCS stopped.
	my $t0 = now();
	print $in "break spin.c:$line\nwait --timeout 60\n";
	my ($first, $last, $nstop) = (0, 0, 0);
	while ($nstop < $nprocs) {
		my ($l, $t) = next_line($t0 + 60 - now());
		fail("round $r: $nstop of $nprocs stopped after 60 s")
			unless defined $l;
		next unless $l =~ /^\[p\d+ on n1 stopped( at breakpoint \d+)?,/;
		$nbp++ if defined $1;
		$first = $t if $nstop++ == 0;
		$last = $t;
	}
	push @first, ($first - $t0) * 1e3;
	push @last, ($last - $t0) * 1e3;
	# 2. step round trips on the current process, one at a time.
	for my $k (1 .. $steps) {
		my $s = now();
		print $in "step\n";
		my $t = wait_for(qr/^\[p\d+ on n1 stopped, /, 10,
				 "stop of step $k in round $r");
		push @step, ($t - $s) * 1e3;
	}
	# All of them running again for the next round.
	print $in "delete\ncontinue --timeout 0.2\n";
	all_running();
}
printf "live: arm %d procs, first stop %s; goal < 50 ms)\n", $nprocs,
	spread(@first);
printf "live: all %d stopped %s; %d of %d stops at the breakpoint, the "
	. "others by the console)\n", $nprocs, spread(@last), $nbp,
	$nprocs * $rounds;
printf "live: step round trip %s; goal < 5 ms)\n", spread(@step);
# Errors of the session do not stop the figures, but are named.
my @err = grep { /^\[node n1: daemon error|^paravt: .*error:/ } @log;
printf "live: note: %d error line(s) in the session, the first: %s\n",
	scalar @err, $err[0] if @err;

print $in "kill all\nquit\n";
close $in;
1 while next_line(30);
kill 'TERM', $pid unless $eof;
waitpid($pid, 0);
exit 0;
EOF

echo "live debugging ($NPROCS copies of spin on one node, loopback, $(nproc 2>/dev/null || echo ?) cpus):"
# The console in the temp dir (load reads spin.c there), its own HOME.
(cd "$tmp" && HOME=$tmp/home exec perl drive.pl "$BIN/paravt" \
	"$(cat "$tmp/port")" "$LINE" "$NPROCS" "$ROUNDS" "$STEPS") &
cpid=$!
wait "$cpid"
rc=$?
cpid=""
[ $rc -eq 0 ] || { echo "live: paravtd log:"; tail -n 20 "$tmp/d.log"; exit 1; }
exit 0
