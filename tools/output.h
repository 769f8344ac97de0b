/* SPDX-License-Identifier: MIT */
/*
 * output.h - an output file that appears only when it is complete
 *
 *	struct out_file o;
 *
 *	if (out_open(&o, "trace.nettrace"))	(errno says why)
 *		...
 *	... write to o.fd ...
 *	err = ok ? out_commit(&o, false) : (out_abandon(&o), 0);
 *
 * The file is written as PATH.part-XXXXXX in PATH's folder and renamed to
 * PATH by out_commit(): a run that fails, or is killed, never leaves PATH
 * half-written or truncated, and an existing PATH stays as it was until
 * the new one replaces it whole; with out_die_on_signals(), a run ended
 * by a signal leaves no temporary file either. A symbolic link is followed: the file it
 * names is the one replaced. What is not a regular file (/dev/null, a
 * FIFO, a terminal) is written in place, as it is no file to keep.
 */
#ifndef EH_TOOLS_OUTPUT_H
#define EH_TOOLS_OUTPUT_H

#include <stdbool.h>

struct out_file {
	const char *path;	/* the name it will have */
	char *real;		/* ... where a link leads, or NULL */
	char *tmp;		/* the name it has while written; NULL in place */
	int fd;			/* -1 when closed */
};

/* Create the temporary file; 0, or -1 with errno set. */
int out_open(struct out_file *o, const char *path);

/*
 * Flush it to the disk, close it, keep an existing PATH as PATH.old when
 * @keep_old (as perf record does), and give it its name. 0, or -errno
 * (the temporary file is then deleted).
 */
int out_commit(struct out_file *o, bool keep_old);

/* Close and delete the temporary file (a failed run). */
void out_abandon(struct out_file *o);

/*
 * SIGINT, SIGTERM and SIGHUP, where they would end the process as they
 * are (not ignored, not caught), now delete the temporary files there are
 * first, and then end it.
 */
void out_die_on_signals(void);

/* Delete the temporary files there are and end the process by @sig. */
void out_die(int sig);

/* The folder of @path, to free (NULL when out of memory). */
char *out_folder(const char *path);

#endif /* EH_TOOLS_OUTPUT_H */
