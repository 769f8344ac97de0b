// SPDX-License-Identifier: MIT
/*
 * procfs.c - what /proc says of a running process (see procfs.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/procfs.h"

int ehd__proc_status(uint32_t pid, const char *const *keys, size_t n,
		     char (*vals)[EHD__STATUS_MAX])
{
	char path[40], line[256];
	size_t i, found = 0, len;
	FILE *fp;

	for (i = 0; i < n; i++)
		vals[i][0] = 0;
	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (found < n && fgets(line, sizeof(line), fp)) {
		for (i = 0; i < n; i++) {
			const char *v;

			len = strlen(keys[i]);
			if (strncmp(line, keys[i], len) || line[len] != ':')
				continue;
			v = line + len + 1;
			v += strspn(v, " \t");
			snprintf(vals[i], EHD__STATUS_MAX, "%.*s",
				 (int)strcspn(v, "\n"), v);
			found++;
			break;
		}
	}
	fclose(fp);
	return 0;
}

uint32_t ehd__proc_nspid(uint32_t pid)
{
	static const char *const key[] = { "NSpid" };
	char v[1][EHD__STATUS_MAX];
	unsigned long id = pid;
	char *p, *end;

	if (ehd__proc_status(pid, key, 1, v))
		return pid;
	for (p = v[0]; *p; p = end) {	/* "PID [PID-IN-CHILD-NS...]" */
		unsigned long got = strtoul(p, &end, 10);

		if (end == p)
			break;
		id = got;
	}
	return id && id <= UINT32_MAX ? (uint32_t)id : pid;
}

/* Whether the namespace or root links @what of process @pid and ours differ. */
static bool differs(uint32_t pid, const char *what, const char *ours)
{
	char path[48];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%u/%s", pid, what);
	if (stat(path, &a) || stat(ours, &b))
		return false;
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

bool ehd__proc_pidns(uint32_t pid, char *buf, size_t size)
{
	char path[40];
	ssize_t n;

	if (size)
		buf[0] = 0;
	if (!size || !differs(pid, "ns/pid", "/proc/self/ns/pid"))
		return false;
	snprintf(path, sizeof(path), "/proc/%u/ns/pid", pid);
	n = readlink(path, buf, size - 1);
	if (n <= 0) {
		buf[0] = 0;
		return false;
	}
	buf[n] = 0;
	return true;
}

bool ehd__proc_other_root(uint32_t pid)
{
	return differs(pid, "root", "/");
}

bool ehd__proc_root_path(uint32_t pid, const char *path, char *buf,
			 size_t size)
{
	int n = snprintf(buf, size, "/proc/%u/root%s", pid, path);

	return n > 0 && (size_t)n < size;
}
