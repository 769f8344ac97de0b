// SPDX-License-Identifier: MIT
/*
 * reader.c - events from trace files: kind detection, interceptor records
 * turned into struct ehd_event; perf input is formats/perf/perf-read.c's
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ehdecode/reader.h>

#include "formats/dat/dat-file.h"
#include "core/ehd-bytes.h"
#include "core/err.h"
#include "core/io.h"
#include "formats/input.h"
#include "model/event-int.h"
#include "formats/nettrace/nettrace-format.h"
#include "formats/heph/heph-read.h"
#include "formats/nettrace/nettrace-read.h"
#include "system/procs.h"

/* perf.data and live sessions (formats/perf/perf-read.c). */
extern const struct ehd__input_ops ehd__perf_input;

struct ehd_reader {
	unsigned int flags;
	int kind;
	int fd;
	bool own_fd;
	char *name;

	void *perf;		/* ehd__perf_input's state */
	struct ehd__dat_file dat;
	struct ehd__nt *nt;
	struct ehd__heph *heph;
	struct ehd_enum *en;	/* identifies EventHeader events */
	struct ehd__procs *procs;	/* nettrace */

	struct ehd_event ev;
	struct ehd__event_internal internal;	/* behind ev.internal */
	struct ehd_trace_info info;
	struct ehd_reader_stats stats;

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
		      EHD_READER_SYSTEM)) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->flags = flags;
	r->fd = -1;
	r->en = ehd_enum_new();
	if (!r->en) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

EHD_API void ehd_reader_free(struct ehd_reader *r)
{
	if (!r)
		return;
	ehd__perf_input.free(r->perf);
	ehd__dat_fini(&r->dat);
	ehd__nt_free(r->nt);
	ehd__heph_free(r->heph);
	if (r->own_fd)
		close(r->fd);
	ehd_enum_free(r->en);
	ehd__procs_free(r->procs);
	free(r->name);
	free(r);
}

/* ---- opening ---- */

static int open_perf(struct ehd_reader *r, const struct ehd__input_src *src)
{
	int kind = ehd__perf_input.open(&r->perf, src);

	if (kind < 0)
		return kind;
	r->kind = kind;
	return 0;
}

/* Take the nettrace reader's error as ours. */
static int nt_fail(struct ehd_reader *r, int err)
{
	uint64_t off = 0;
	const char *why = ehd__nt_error(r->nt, &off);

	return ehd__err_take(&r->err, err, why, off);
}

static int open_nettrace(struct ehd_reader *r, const uint8_t *pre,
			 size_t npre, bool seekable)
{
	int err;

	if (seekable && lseek(r->fd, (off_t)npre, SEEK_SET) < 0)
		return fail(r, -errno, 0, "lseek: %s", strerror(errno));
	err = ehd__nt_open(&r->nt, r->fd, pre, npre,
			   r->flags & EHD_READER_STRICT);
	if (err)
		return r->nt ? nt_fail(r, err) : fail(r, err, 0, "out of memory");
	r->kind = EHD_INPUT_NETTRACE;
	/* Its Universal.System events attribute its stacks. */
	if (!r->procs && !(r->procs = ehd__procs_new()))
		return fail(r, -ENOMEM, 0, "out of memory");
	ehd__nt_set_procs(r->nt, r->procs);
	return 0;
}

/* A short string of a Universal payload: u16 count, UTF-8 bytes. */
static size_t short_string(const uint8_t *p, const uint8_t *end,
			   const char **s, size_t *len)
{
	if (end - p < 2)
		return 0;
	*len = (size_t)p[0] | (size_t)p[1] << 8;
	if ((size_t)(end - p - 2) < *len)
		return 0;
	*s = (const char *)p + 2;
	return 2 + *len;
}

/*
 * The mappings and functions a nettrace system trace names (ProcessMapping,
 * ProcessSymbol: varuints, then a short string), for ehd_event_frames().
 * Malformed payloads are only not used: the event is still given.
 */
static void nt_given(struct ehd_reader *r, const struct ehd_event *ev)
{
	const uint8_t *p = ev->data, *end = p + ev->size;
	bool mapping = ev->name_len == 14 && !memcmp(ev->name, "ProcessMapping", 14);
	bool symbol = ev->name_len == 13 && !memcmp(ev->name, "ProcessSymbol", 13);
	uint64_t v[4];
	const char *name;
	size_t i, k, len;

	if ((!mapping && !symbol) || ev->provider_len != 16 ||
	    memcmp(ev->provider, "Universal.System", 16) || !p)
		return;
	for (i = 0; i < 4; i++) {
		k = ehd__nt_get_varuint(p, end, 10, &v[i]);
		if (!k)
			return;
		p += k;
	}
	if (!short_string(p, end, &name, &len))
		return;
	if (mapping)
		ehd__procs_given_mapping(r->procs, ev->pid, v[0], v[1], v[2],
					 v[3], name, len);
	else
		ehd__procs_given_symbol(r->procs, v[1], v[2], v[3], name, len);
}

/* Take the Heph reader's error as ours. */
static int heph_fail(struct ehd_reader *r, int err)
{
	uint64_t off = 0;
	const char *why = ehd__heph_error(r->heph, &off);

	return ehd__err_take(&r->err, err, why, off);
}

static int open_heph(struct ehd_reader *r, const uint8_t *pre, size_t npre,
		     const struct stat *st, bool seekable)
{
	if (seekable && lseek(r->fd, (off_t)npre, SEEK_SET) < 0)
		return fail(r, -errno, 0, "lseek: %s", strerror(errno));
	if (ehd__heph_open(&r->heph, r->fd, pre, npre,
			   seekable ? (uint64_t)st->st_size : UINT64_MAX))
		return fail(r, -ENOMEM, 0, "out of memory");
	if (r->flags & EHD_READER_STRICT)
		ehd__heph_set_strict(r->heph);
	r->kind = EHD_INPUT_HEPH;
	return 0;
}

static int open_input(struct ehd_reader *r)
{
	uint8_t h[8];
	struct stat st;
	size_t n;
	bool seekable;
	int err;

	if (fstat(r->fd, &st))
		return fail(r, -errno, 0, "fstat: %s", strerror(errno));
	seekable = S_ISREG(st.st_mode);
	if (seekable)
		err = ehd__pread_full(r->fd, h, sizeof(h), 0, &n);
	else
		err = ehd__read_full(r->fd, h, sizeof(h), &n);
	if (err)
		return fail(r, err, 0, "read: %s", strerror(-err));
	if (n == 0)
		return fail(r, -EBADMSG, 0, "empty input");
	if (ehd__perf_input.probe(h, n)) {
		struct ehd__input_src src = {
			.flags = r->flags, .name = r->name, .fd = r->fd,
			.seekable = seekable, .head = h, .nhead = n,
			.err = &r->err,
		};

		return open_perf(r, &src);
	}
	if (ehd__nt_is_nettrace(h, n))
		return open_nettrace(r, h, n, seekable);
	if (ehd__heph_is_heph(h, n))
		return open_heph(r, h, n, &st, seekable);
	/* An interceptor capture starts with a plausible record size. */
	if (n >= 4 && ehd__load_uint(h, 4, 0) >= 5 &&
	    ehd__load_uint(h, 4, 0) <= EHD__DAT_RECORD_MAX) {
		if (seekable && lseek(r->fd, 0, SEEK_SET) < 0)
			return fail(r, -errno, 0, "lseek: %s", strerror(errno));
		if (ehd__dat_init(&r->dat, r->fd, h, seekable ? 0 : n))
			return fail(r, -ENOMEM, 0, "out of memory");
		r->kind = EHD_INPUT_DAT;
		return 0;
	}
	return fail(r, -ENOTSUP, 0,
		    "unknown input kind (not perf.data, nettrace, a Heph trace or an interceptor capture)");
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
		.flags = r->flags, .fd = -1, .session = s, .err = &r->err,
	};

	if (r->kind != EHD_INPUT_NONE || r->err.err)
		return -EBUSY;
	r->name = strdup("live session");
	if (!r->name)
		return fail(r, -ENOMEM, 0, "out of memory");
	src.name = r->name;
	return open_perf(r, &src);
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

static void dat_event(struct ehd_reader *r, const struct ehd__dat_record *rec)
{
	struct ehd_event *ev = &r->ev;

	memset(ev, 0, sizeof(*ev));
	memset(&r->internal, 0, sizeof(r->internal));
	ev->internal = &r->internal;
	ev->source_offset = rec->offset;
	ev->long_size = 8;
	ev->tracepoint = rec->tracepoint;
	ev->tracepoint_len = rec->tracepoint_len;
	ev->data = rec->data;
	ev->size = rec->size;
	if (!ehd__identify(r->en, ev, &r->internal, rec->data, rec->size))
		return;
	r->stats.not_eventheader++;
	ev->kind = EHD_EVENT_RAW;
	ev->provider = "";
	ev->name = rec->tracepoint;
	ev->name_len = rec->tracepoint_len;
}

EHD_API int ehd_reader_next(struct ehd_reader *r, const struct ehd_event **ev)
{
	struct ehd__dat_record rec;
	int ret;

	*ev = NULL;
	if (r->err.err)
		return r->err.err;
	switch (r->kind) {
	case EHD_INPUT_PERF:
	case EHD_INPUT_PERF_PIPE:
	case EHD_INPUT_SESSION:
		ret = ehd__perf_input.next(r->perf, ev);
		if (ret > 0)
			r->stats.events++;
		return ret;
	case EHD_INPUT_NETTRACE:
		ret = ehd__nt_next(r->nt, ev);
		if (ret < 0)
			return nt_fail(r, ret);
		r->stats.records += (uint64_t)ret;
		r->stats.lost = ehd__nt_lost(r->nt);
		if (ret > 0) {
			r->stats.events++;
			nt_given(r, *ev);
		}
		return ret;
	case EHD_INPUT_HEPH:
		ret = ehd__heph_next(r->heph, ev);
		r->stats.records = ehd__heph_packets(r->heph);
		if (ret < 0)
			return heph_fail(r, ret);
		if (ret > 0)
			r->stats.events++;
		return ret;
	case EHD_INPUT_DAT:
		ret = ehd__dat_next(&r->dat, &rec);
		if (ret < 0)
			return ehd__err_take(&r->err, ret, r->dat.err.msg,
					     r->dat.err.off);
		r->stats.records += (uint64_t)ret;
		if (ret > 0)
			dat_event(r, &rec);
		break;
	default:
		return fail(r, -EINVAL, 0, "no input is open");
	}
	if (ret > 0) {
		r->stats.events++;
		*ev = &r->ev;
	}
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
	if (r->nt && r->kind == EHD_INPUT_NETTRACE)
		ehd__nt_trace_info(r->nt, i);
	if (r->heph)
		ehd__heph_trace_info(r->heph, i);
	if (r->perf)
		ehd__perf_input.trace_info(r->perf, i);
	return i;
}

EHD_API void ehd_reader_stats(const struct ehd_reader *r,
			      struct ehd_reader_stats *stats)
{
	*stats = r->stats;
	if (r->perf)
		ehd__perf_input.stats(r->perf, stats);
	if (r->nt) {
		stats->malformed = ehd__nt_malformed(r->nt);
		stats->dangling = ehd__nt_dangling(r->nt);
	}
}

EHD_API const char *ehd_reader_error(const struct ehd_reader *r,
				     uint64_t *offset)
{
	return ehd__err_get(&r->err, offset);
}
