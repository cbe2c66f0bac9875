/*
 * pvm_worker.c — PVM master/worker test program (worker side).
 *
 * Spawned by pvm_master.  Receives (within WORK_TIMEOUT seconds) its
 * index, a block of ints, a double scale, a 64-bit long base, a short and a
 * string; replies to its parent with: index, count, int sum, double sum of
 * value*scale, base+sum as a long, the negated short, "<string>:<count>",
 * and the name and architecture of the host it runs on (from pvm_config
 * and pvm_tidtohost).  Prints nothing unless something fails.
 */
#include <stdio.h>
#include <string.h>
#include <pvm3.h>

#define TAG_WORK 11
#define TAG_RESULT 12
#define WORK_TIMEOUT 40

int main(void)
{
	int mytid = pvm_mytid();
	if (mytid < 0) {
		pvm_perror("pvm_worker: pvm_mytid");
		return 1;
	}
	int parent = pvm_parent();
	if (parent < 0) {
		fprintf(stderr, "pvm_worker: no parent (%d)\n", parent);
		pvm_exit();
		return 1;
	}

	/* Which host am I on? */
	char host[64] = "?", arch[32] = "?";
	int dtid = pvm_tidtohost(mytid);
	int nhost = 0, narch = 0;
	struct pvmhostinfo *hi = NULL;
	if (pvm_config(&nhost, &narch, &hi) >= 0) {
		for (int h = 0; h < nhost; h++)
			if (hi[h].hi_tid == dtid) {
				snprintf(host, sizeof host, "%s", hi[h].hi_name);
				snprintf(arch, sizeof arch, "%s", hi[h].hi_arch);
			}
	}

	struct timeval tmo = { WORK_TIMEOUT, 0 };
	if (pvm_trecv(parent, TAG_WORK, &tmo) <= 0) {
		fprintf(stderr, "pvm_worker t%x: no work within %d s\n", mytid, WORK_TIMEOUT);
		pvm_exit();
		return 1;
	}
	int i = -1, n = 0, v[400];
	double scale = 0;
	long base = 0;
	short sh = 0;
	char str[64] = "";
	pvm_upkint(&i, 1, 1);
	pvm_upkint(&n, 1, 1);
	if (n < 0 || n > 400) {
		fprintf(stderr, "pvm_worker t%x: bad count %d\n", mytid, n);
		pvm_exit();
		return 1;
	}
	pvm_upkint(v, n, 1);
	pvm_upkdouble(&scale, 1, 1);
	pvm_upklong(&base, 1, 1);
	pvm_upkshort(&sh, 1, 1);
	pvm_upkstr(str);

	int sum = 0;
	double dsum = 0;
	for (int j = 0; j < n; j++) {
		sum += v[j];
		dsum += v[j] * scale;
	}
	long lval = base + sum;
	short nsh = (short)-sh;
	char out[64];
	snprintf(out, sizeof out, "%.50s:%d", str, n);

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&i, 1, 1);
	pvm_pkint(&n, 1, 1);
	pvm_pkint(&sum, 1, 1);
	pvm_pkdouble(&dsum, 1, 1);
	pvm_pklong(&lval, 1, 1);
	pvm_pkshort(&nsh, 1, 1);
	pvm_pkstr(out);
	pvm_pkstr(host);
	pvm_pkstr(arch);
	if (pvm_send(parent, TAG_RESULT) < 0) {
		pvm_perror("pvm_worker: pvm_send");
		pvm_exit();
		return 1;
	}
	pvm_exit();
	return 0;
}
