# tests/lib/mpi_delta.sh — Δ steps of traced sends and receives, for
# the tests of the wrappers' calibrated cost (92-wrappers-mpi-*.sh,
# 92-wrappers-pvm-cost.sh).
#
# mpi_delta_steps RAW [CALLS]: from RAW (`trace show N --raw`), one line a
# process: "PROC STARTS STEP N ENDS STEP N" — the distinct Δ steps of a
# START of one of CALLS (a regular expression of call names, default
# MPI_Send|MPI_Recv) right after the END of one (how many distinct, the
# last or "-", how many such STARTs), then the same for an END right
# after its START.  Each is one constant step when the calibration holds
# for the whole run.
mpi_delta_steps() {
	awk -v calls="^(${2:-MPI_Send|MPI_Recv})\$" '$1 ~ /^\[p/ && $7 == "delta" {
		p = substr($1, 2); d = $8 + 0
		call = $10 ~ calls
		st = $10 == "start" && $11 ~ calls
		if (st && lastend[p])
			s[p, d - last[p]]++
		else if (call && laststart[p])
			e[p, d - last[p]]++
		procs[p] = 1
		laststart[p] = st; lastend[p] = call; last[p] = d
	} END {
		for (p in procs) {
			ns = ne = sn = en = 0; sk = ek = "-"
			for (k in s) { split(k, f, SUBSEP); if (f[1] == p) { ns++; sk = f[2]; sn += s[k] } }
			for (k in e) { split(k, f, SUBSEP); if (f[1] == p) { ne++; ek = f[2]; en += e[k] } }
			printf "%s %d %s %d %d %s %d\n", p, ns, sk, sn, ne, ek, en
		}
	}' "$1"
}
