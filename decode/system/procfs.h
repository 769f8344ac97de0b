/* SPDX-License-Identifier: MIT */
/*
 * procfs.h - what /proc says of a running process: fields of its status
 * file, its pid and pid namespace as it sees them, and the files it sees
 * under another root (a container) (libehdecode, private)
 *
 *	char v[2][EHD__STATUS_MAX];
 *	static const char *const keys[] = { "Tgid", "PPid" };
 *
 *	if (!ehd__proc_status(pid, keys, 2, v)) ... v[0], v[1] ...
 *
 * All of them answer for the process that has @pid now: a caller reading
 * a recording after the fact must not ask about processes that ended.
 */
#ifndef EHD_PROCFS_H
#define EHD_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define EHD__STATUS_MAX 96	/* a status value, its end cut */

/*
 * ehd__proc_status() - the values of fields @keys ("Tgid", without the
 * colon) of /proc/@pid/status, each into @vals[i] with its leading
 * blanks and its newline removed ("" for a field it does not have)
 * Return: 0, or -errno (the process is gone, or not ours to read).
 */
int ehd__proc_status(uint32_t pid, const char *const *keys, size_t n,
		     char (*vals)[EHD__STATUS_MAX]);

/*
 * ehd__proc_nspid() - process @pid's id in its own pid namespace (the
 * last of its status's NSpid); @pid itself in ours, or when unknown
 */
uint32_t ehd__proc_nspid(uint32_t pid);

/*
 * ehd__proc_pidns() - "pid:[INODE]", the pid namespace of process @pid,
 * into @buf, when it is not ours. Return: false when it is ours or cannot
 * be read (@buf is then "").
 */
bool ehd__proc_pidns(uint32_t pid, char *buf, size_t size);

/*
 * ehd__proc_other_root() - whether process @pid sees another root than
 * ours (a mount namespace with its own /: a container); false when it
 * cannot be told (the process is gone).
 */
bool ehd__proc_other_root(uint32_t pid);

/*
 * ehd__proc_root_path() - "/proc/PID/root" + @path (absolute) into @buf:
 * the file @path as process @pid sees it. Return: false when it does
 * not fit.
 */
bool ehd__proc_root_path(uint32_t pid, const char *path, char *buf,
			 size_t size);

#endif /* EHD_PROCFS_H */
