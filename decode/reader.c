// SPDX-License-Identifier: MIT
/*
 * reader.c - events from trace files: the front end of ehdecode/reader.h
 *
 * It knows no format. The first bytes of an input pick its reader from
 * ehd__inputs[] (formats/inputs.c); every call is then that reader's
 * (struct ehd__input_ops, formats/input.h). What is kept here is what
 * every input has: the descriptor and name, the events given out and the
 * error record, which the readers write in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ehdecode/reader.h>

#include "core/err.h"
#include "core/io.h"
#include "formats/input.h"
#include "model/eh-row.h"

struct ehd_reader {
	unsigned int flags;
	int kind;		/* enum ehd_input_kind, once open */
	int fd;
	bool own_fd;
	char *name;

	const struct ehd__input_ops *ops;	/* the input's reader */
	void *state;		/* ... and its state */

	struct ehd_trace_info info;
	uint64_t events;	/* given out */
	uint64_t passed;	/* of them, written by ehd_reader_pass() */
	struct ehd__err err;
};

static int fail(struct ehd_reader *r, int err, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(struct ehd_reader *r, int err, uint64_t off,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehd__err_vset(&r->err, err, off, fmt, ap);
	va_end(ap);
	return err;
}

EHD_API struct ehd_reader *ehd_reader_new(unsigned int flags)
{
	struct ehd_reader *r;

	if (flags & ~(EHD_READER_SORT_TIME | EHD_READER_STRICT |
		      EHD_READER_SYSTEM | EHD_READER_RAW_NAMES)) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->flags = flags;
	r->fd = -1;
	return r;
}

EHD_API void ehd_reader_free(struct ehd_reader *r)
{
	if (!r)
		return;
	if (r->ops) {
		r->ops->free(r->state);
		free(r->state);
	}
	if (r->own_fd)
		close(r->fd);
	free(r->name);
	free(r);
}

/* ---- opening ---- */

/* Open @src with @ops: the reader stays, even when it fails. */
static int start(struct ehd_reader *r, const struct ehd__input_ops *ops,
		 const struct ehd__input_src *src)
{
	int kind;

	r->state = calloc(1, ops->state_size);
	if (!r->state)
		return ehd__err_set(src->err, -ENOMEM, 0, "out of memory");
	r->ops = ops;
	kind = ops->open(r->state, src);
	if (kind < 0)
		return kind;
	r->kind = kind;
	return 0;
}

/* No reader knows the input: say what it is not, in the probes' order. */
static int unknown(struct ehd_reader *r)
{
	char what[200];
	size_t i, n = 0, len = 0;

	while (ehd__inputs[n])
		n++;
	what[0] = 0;
	for (i = 0; i < n && len < sizeof(what); i++)
		len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s",
					!i ? "" : i + 1 < n ? ", " : " or ",
					ehd__inputs[i]->what);
	return fail(r, -ENOTSUP, 0, "unknown input kind (not %s)", what);
}

static int open_input(struct ehd_reader *r)
{
	uint8_t h[EHD__INPUT_HEAD];
	struct ehd__input_src src = {
		.flags = r->flags, .name = r->name, .fd = r->fd,
		.size = UINT64_MAX, .head = h, .err = &r->err,
	};
	const struct ehd__input_ops *const *ops;
	struct stat st;
	int err;

	if (fstat(r->fd, &st))
		return fail(r, -errno, 0, "fstat: %s", strerror(errno));
	/* A regular file is read from its start, anything else from here. */
	src.seekable = S_ISREG(st.st_mode);
	if (src.seekable) {
		src.size = (uint64_t)st.st_size;
		err = ehd__pread_full(r->fd, h, sizeof(h), 0, &src.nhead);
	} else {
		err = ehd__read_full(r->fd, h, sizeof(h), &src.nhead);
	}
	if (err)
		return fail(r, err, 0, "read: %s", strerror(-err));
	if (!src.nhead)
		return fail(r, -EBADMSG, 0, "empty input");
	for (ops = ehd__inputs; *ops; ops++)
		if ((*ops)->probe && (*ops)->probe(h, src.nhead))
			return start(r, *ops, &src);
	return unknown(r);
}

EHD_API int ehd_reader_open_fd(struct ehd_reader *r, int fd, const char *name)
{
	if (r->kind != EHD_INPUT_NONE || r->err.err)
		return -EBUSY;
	if (fd < 0)
		return fail(r, -EBADF, 0, "bad file descriptor");
	r->fd = fd;
	r->name = strdup(name ? name : "input");
	if (!r->name)
		return fail(r, -ENOMEM, 0, "out of memory");
	return open_input(r);
}

EHD_API int ehd_reader_open_session(struct ehd_reader *r,
				    struct ehd_session *s)
{
	struct ehd__input_src src = {
		.flags = r->flags, .fd = -1, .size = UINT64_MAX,
		.session = s, .err = &r->err,
	};
	const struct ehd__input_ops *const *ops;

	if (r->kind != EHD_INPUT_NONE || r->err.err)
		return -EBUSY;
	r->name = strdup("live session");
	if (!r->name)
		return fail(r, -ENOMEM, 0, "out of memory");
	src.name = r->name;
	for (ops = ehd__inputs; *ops; ops++)
		if ((*ops)->kinds & 1u << EHD_INPUT_SESSION)
			return start(r, *ops, &src);
	return fail(r, -ENOTSUP, 0, "no reader of live sessions");
}

EHD_API int ehd_reader_open(struct ehd_reader *r, const char *path)
{
	int fd, err;

	if (r->kind != EHD_INPUT_NONE || r->err.err)
		return -EBUSY;
	if (!strcmp(path, "-"))
		return ehd_reader_open_fd(r, STDIN_FILENO, "stdin");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(r, -errno, 0, "%s", strerror(errno));
	err = ehd_reader_open_fd(r, fd, path);
	r->own_fd = true;
	return err;
}

/* ---- events ---- */

EHD_API int ehd_reader_next(struct ehd_reader *r, const struct ehd_event **ev)
{
	int ret;

	*ev = NULL;
	if (r->err.err)
		return r->err.err;
	if (r->kind == EHD_INPUT_NONE)
		return fail(r, -EINVAL, 0, "no input is open");
	ret = r->ops->next(r->state, ev);
	if (ret > 0)
		r->events++;
	return ret;
}

EHD_API int ehd_reader_pass(struct ehd_reader *r, struct ehd_writer *w,
			    const struct ehd_event **ev, uint64_t *passed)
{
	struct ehd__eh_sink sink = { .max = EHD_PASS_MAX };
	int ret;

	*passed = 0;
	if (r->err.err || r->kind == EHD_INPUT_NONE || !r->ops->pass ||
	    !ehd__writer_sink(w, &sink))
		return ehd_reader_next(r, ev);
	*ev = NULL;
	ret = r->ops->pass(r->state, ev, &sink);
	ehd__writer_sink_end(w, &sink);
	*passed = sink.taken;
	r->events += sink.taken;
	r->passed += sink.taken;
	if (ret > 0 && *ev)
		r->events++;
	return ret;
}

/* ---- information ---- */

EHD_API int ehd_reader_kind(const struct ehd_reader *r)
{
	return r->kind;
}

EHD_API const struct ehd_trace_info *ehd_reader_trace_info(struct ehd_reader *r)
{
	struct ehd_trace_info *i = &r->info;

	memset(i, 0, sizeof(*i));
	i->clockid = -1;
	if (r->state && r->ops->trace_info)
		r->ops->trace_info(r->state, i);
	return i;
}

EHD_API void ehd_reader_stats(const struct ehd_reader *r,
			      struct ehd_reader_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (r->state && r->ops->stats)
		r->ops->stats(r->state, stats);
	stats->events = r->events;
	stats->passed = r->passed;
}

EHD_API int ehd_reader_restate(struct ehd_reader *r)
{
	if (!r->state || !r->ops->restate || !(r->flags & EHD_READER_SYSTEM))
		return -ENOTSUP;
	r->ops->restate(r->state);
	return 0;
}

EHD_API const char *ehd_reader_error(const struct ehd_reader *r,
				     uint64_t *offset)
{
	return ehd__err_get(&r->err, offset);
}
