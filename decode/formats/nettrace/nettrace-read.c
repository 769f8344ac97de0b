// SPDX-License-Identifier: MIT
/*
 * nettrace-read.c - nettrace input: version 6 blocks, event rows turned
 * into struct ehd_event, and their fields as enumerator items
 *
 * Versions 3 to 5 are read by nettrace-legacy.c, which gives this file
 * metadata as v6 rows and events as struct ehd__nt_row.
 *
 * The fields of an event are walked from its metadata. Files written by
 * libehdecode carry, per event type, an "ehd:fields" hint for each field
 * (its EventHeader encoding, format and tag, and ":c" for a tracepoint's
 * common field or ":p" for padding), and "ehd:header"/"ehd:tracepoint" for EventHeader
 * events: with them an event is given back with the identity and the
 * rendering it had before (docs/nettrace-mapping.md). Without them, types
 * render by their nettrace meaning.
 *
 * Strict mode (EHD_READER_STRICT) also refuses what TraceEvent refuses or
 * reads wrongly (nettrace-notes.md §2.2 and §2.3): it is how the writer's
 * output is checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/event.h>
#include <ehdecode/reader.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/ehd-table.h"
#include "core/err.h"
#include "core/input.h"
#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "formats/nettrace/nettrace-format.h"
#include "formats/nettrace/nettrace-read.h"
#include "formats/input.h"
#include "system/procs.h"

#define READ_CHUNK (256u << 10)
/* TraceEvent's limit on a stack (its payload's: EHD__NT_PAYLOAD_MAX). */
#define STACK_BYTES_MAX 65527u
#define FIXED_ARRAY_MAX 0xffebu
/* Deepest nesting of objects and arrays. */
#define DEPTH_MAX 16

/* A type of a metadata row (the tree flattened into an array). */
struct nt_type {
	uint8_t code;
	uint16_t count;		/* FixedLengthArray */
	uint32_t elem;		/* element type: arrays, locs */
	uint32_t first, n;	/* Object: its fields */
	uint32_t size;		/* fixed size, 0 if variable */
};

/* A field, with its rendering hint when the file has one. */
struct nt_field {
	const char *name;
	uint32_t type;
	bool hinted;
	uint8_t enc;		/* EventHeader encoding with array flags */
	uint8_t fmt;
	uint16_t tag;
	char kind;		/* 'c' common, 'p' padding, 0 */
};

struct nt_meta {
	uint32_t id;
	const char *provider, *name;
	size_t provider_len, name_len;
	uint32_t event_id;
	uint8_t opcode, level, version;
	uint64_t keyword;
	bool has_opcode;
	bool eventheader;		/* has "ehd:header" */
	bool classic, raw;
	struct ehd_event_info info;	/* EventHeader identity */
	const char *tracepoint;
	size_t tracepoint_len;
	uint32_t top, ntop;		/* top-level fields */
	struct nt_field *fields;
	size_t nfields;
	struct nt_type *types;
	size_t ntypes;
	char *strings;
	const uint8_t *fields_raw;	/* strict: for (provider, id) checks */
	size_t fields_raw_len;
};

struct nt_thread {
	uint64_t index;
	bool has_pid, has_tid;
	uint32_t pid, tid;
	bool live;
	size_t name;		/* Name, in nt->thread_names; 0: none */
	size_t process;		/* KeyValue ProcessName, likewise */
};

struct nt_labels {
	uint32_t id;
	bool has_activity, has_related;
	uint8_t activity[16], related[16];
	bool has_opcode, has_level, has_keyword, has_version;
	uint8_t opcode, level, version;
	uint64_t keyword;
};

struct nt_stack {
	uint32_t id;
	size_t at, count;	/* IPs in nt->stack_ips */
};

struct ehd__nt {
	bool strict;
	unsigned int version;
	void *legacy;

	struct ehd__in in;

	/* the trace */
	bool have_trace;
	uint64_t sync_ticks, freq;
	uint64_t sync_utc_ns;	/* ns since 1970, modulo 2^64 */
	uint32_t pointer_size;
	uint32_t process_id;
	int time_base;		/* 0 utc, 1 clock, 2 none */
	unsigned int context;	/* EHD_CTX_* the events carry */
	struct ehd_buf kv;	/* trace key-value strings */
	struct ehd_trace_info info;

	/* tables */
	struct nt_meta **metas;
	size_t nmetas, metas_cap;
	struct ehd_table meta_ids;	/* id -> index in metas */
	struct ehd_table event_ids;	/* strict: provider ^ event id */
	struct nt_thread *threads;
	size_t nthreads, threads_cap;
	struct ehd_table thread_ids;	/* index -> position */
	struct nt_stack *stacks;
	size_t nstacks, stacks_cap;
	struct ehd_table stack_ids;
	uint64_t *stack_ips;
	size_t nips, ips_cap;
	struct nt_labels *labels;
	size_t nlabels, labels_cap;
	struct ehd_table label_ids;
	struct ehd_table seqs;		/* capture thread -> position */
	uint32_t *seq_vals;
	size_t nseqs, seqs_cap;
	uint64_t lost;
	uint64_t dangling;		/* events naming what is not there */

	/* the event block being read */
	const uint8_t *blk, *blk_end;
	uint64_t blk_off;
	bool compressed;
	struct ehd__nt_row prev;
	uint32_t cur_capture_valid;
	uint64_t cur_capture;
	uint64_t last_sorted;
	uint64_t last_sp_time;
	bool have_sp_time;
	bool ended;
	bool blk_truncated;	/* the block is cut by the end of input */
	bool in_truncated;	/* reading a row of such a block */
	uint64_t trunc_off;
	uint32_t trunc_size, trunc_have;

	/* the event given out */
	struct ehd_event ev;
	struct ehd__event_internal internal;
	struct ehd_event_info ev_info;
	const struct nt_meta *ev_meta;
	const uint8_t *payload;
	uint32_t payload_size;
	uint8_t legacy_ids[32];
	struct ehd_buf scratch;
	struct ehd_buf name_scratch;
	struct ehd_buf thread_names;	/* "\0", then each name and a NUL */

	struct ehd__err err;
};

int ehd__nt_fail(struct ehd__nt *nt, int err, uint64_t offset,
		 const char *fmt, ...)
{
	va_list ap;

	if (nt->err.err)
		return nt->err.err;
	va_start(ap, fmt);
	ehd__err_vset(&nt->err, err, offset, fmt, ap);
	va_end(ap);
	return err;
}

const char *ehd__nt_error(const struct ehd__nt *nt, uint64_t *offset)
{
	return ehd__err_get(&nt->err, offset);
}

/* ---- input ---- */

uint64_t ehd__nt_offset(const struct ehd__nt *nt)
{
	return ehd__in_offset(&nt->in);
}

/* Have at least @n unread bytes in the buffer, or all that is left. */
static int fill(struct ehd__nt *nt, size_t n)
{
	int err = ehd__in_fill(&nt->in, n);

	if (err == -ENOMEM)
		return ehd__nt_fail(nt, err, ehd__nt_offset(nt),
				    "out of memory");
	if (err)
		return ehd__nt_fail(nt, err, ehd__nt_offset(nt), "read: %s",
				    strerror(-err));
	return 0;
}

int ehd__nt_read(struct ehd__nt *nt, size_t n, const uint8_t **p)
{
	int err;

	if (nt->err.err)
		return nt->err.err;
	err = fill(nt, n);
	if (err)
		return err;
	if (ehd__in_avail(&nt->in) < n)
		return ehd__nt_fail(nt, -EBADMSG, ehd__nt_offset(nt),
				    "truncated: %zu bytes needed, %zu left", n,
				    ehd__in_avail(&nt->in));
	*p = ehd__in_peek(&nt->in);
	ehd__in_skip(&nt->in, n);
	return 0;
}

/* ---- bounded parsing of a block ---- */

struct cur {
	const uint8_t *p, *start, *end;
	uint64_t off;		/* input offset of @start */
};

static uint64_t cur_off(const struct cur *c)
{
	return c->off + (uint64_t)(c->p - c->start);
}

static int short_read(struct ehd__nt *nt, const struct cur *c,
		      const char *what)
{
	if (nt->in_truncated)
		return -ENODATA;	/* the input ended: v6_next() says so */
	return ehd__nt_fail(nt, -EBADMSG, cur_off(c), "%s past the end of its block",
			    what);
}

static int get_bytes(struct ehd__nt *nt, struct cur *c, size_t n,
		     const uint8_t **p, const char *what)
{
	*p = NULL;
	if ((size_t)(c->end - c->p) < n)
		return short_read(nt, c, what);
	*p = c->p;
	c->p += n;
	return 0;
}

static int get_uint(struct ehd__nt *nt, struct cur *c, unsigned int size,
		    uint64_t *v, const char *what)
{
	const uint8_t *p;
	int err = get_bytes(nt, c, size, &p, what);

	*v = err ? 0 : ehd__load_uint(p, size, 0);
	return err;
}

static int get_var(struct ehd__nt *nt, struct cur *c, unsigned int max,
		   uint64_t *v, const char *what)
{
	size_t n;

	*v = 0;
	n = ehd__nt_get_varuint(c->p, c->end, max, v);

	if (!n) {
		if ((size_t)(c->end - c->p) >= max)
			return ehd__nt_fail(nt, -EBADMSG, cur_off(c),
					    "%s: variable-length integer longer than %u bytes",
					    what, max);
		return short_read(nt, c, what);
	}
	if (max == 5 && *v > UINT32_MAX)
		return ehd__nt_fail(nt, -EBADMSG, cur_off(c),
				    "%s: value beyond 32 bits", what);
	c->p += n;
	return 0;
}

static int get_string(struct ehd__nt *nt, struct cur *c, const char **s,
		      size_t *len, const char *what)
{
	uint64_t n;
	const uint8_t *p;
	int err = get_var(nt, c, 5, &n, what);

	if (!err)
		err = get_bytes(nt, c, (size_t)n, &p, what);
	if (!err && nt->strict && !nt->legacy &&
	    ehd__utf8_well_formed((const char *)p, (size_t)n) < n)
		return ehd__nt_fail(nt, -EBADMSG, cur_off(c) - n +
				    ehd__utf8_well_formed((const char *)p,
							  (size_t)n),
				    "%s: not well-formed UTF-8", what);
	if (!err) {
		*s = (const char *)p;
		*len = (size_t)n;
	}
	return err;
}

/* ---- metadata ---- */

static void meta_free(struct nt_meta *m)
{
	if (!m)
		return;
	free(m->fields);
	free(m->types);
	free(m->strings);
	free((void *)m->fields_raw);
	free(m);
}

/* Copies of the strings of a row, NUL-terminated, in one block. */
struct strs {
	struct ehd_buf b;
};

static size_t strs_add(struct strs *s, const char *p, size_t len)
{
	size_t at = s->b.len;

	ehd__buf_put(&s->b, p, len);
	ehd__buf_putc(&s->b, 0);
	return at;
}

struct meta_parse {
	struct ehd__nt *nt;
	struct nt_meta *m;
	struct strs strs;
	size_t *name_at;	/* string offsets of the field names */
	size_t fields_cap, types_cap;
};

static long new_type(struct meta_parse *mp)
{
	struct nt_meta *m = mp->m;

	if (ehd__grow(&m->types, &mp->types_cap, m->ntypes + 1,
		      sizeof(*m->types)))
		return -ENOMEM;
	memset(&m->types[m->ntypes], 0, sizeof(m->types[0]));
	return (long)m->ntypes++;
}

static int parse_fields(struct meta_parse *mp, struct cur *c, uint32_t *first,
			uint32_t *n, int depth);

static int parse_type(struct meta_parse *mp, struct cur *c, uint32_t *type,
		      int depth)
{
	struct ehd__nt *nt = mp->nt;
	static const uint8_t sizes[EHD__NT_TYPE_MAX] = {
		[EHD__NT_BOOLEAN32] = 4, [EHD__NT_UTF16_UNIT] = 2,
		[EHD__NT_SBYTE] = 1, [EHD__NT_BYTE] = 1, [EHD__NT_INT16] = 2,
		[EHD__NT_UINT16] = 2, [EHD__NT_INT32] = 4, [EHD__NT_UINT32] = 4,
		[EHD__NT_INT64] = 8, [EHD__NT_UINT64] = 8, [EHD__NT_SINGLE] = 4,
		[EHD__NT_DOUBLE] = 8, [EHD__NT_DECIMAL] = 16,
		[EHD__NT_DATETIME] = 16, [EHD__NT_GUID] = 16,
		[EHD__NT_UTF8_UNIT] = 1, [EHD__NT_RELLOC] = 4,
		[EHD__NT_DATALOC] = 4, [EHD__NT_BOOLEAN8] = 1,
	};
	uint64_t code, count;
	uint32_t elem = 0, first = 0, nf = 0, i;
	uint64_t at = cur_off(c);
	struct nt_type *t;
	long idx;
	int err;

	if (depth > DEPTH_MAX)
		return ehd__nt_fail(nt, -EBADMSG, at, "types nested too deep");
	err = get_uint(nt, c, 1, &code, "type code");
	if (err)
		return err;
	if (!code || code == 2 || code >= EHD__NT_TYPE_MAX ||
	    (nt->version < 6 && code > EHD__NT_ARRAY))
		return ehd__nt_fail(nt, -EBADMSG, at, "unknown type code %u",
				    (unsigned int)code);
	idx = new_type(mp);
	if (idx < 0)
		return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
	switch (code) {
	case EHD__NT_ARRAY:
	case EHD__NT_FIXED_ARRAY:
	case EHD__NT_RELLOC:
	case EHD__NT_DATALOC:
		err = parse_type(mp, c, &elem, depth + 1);
		if (err)
			return err;
		break;
	case EHD__NT_OBJECT:
		err = parse_fields(mp, c, &first, &nf, depth + 1);
		if (err)
			return err;
		break;
	default:
		break;
	}
	t = &mp->m->types[idx];
	t->code = (uint8_t)code;
	t->elem = elem;
	t->first = first;
	t->n = nf;
	t->size = sizes[code];
	switch (code) {
	case EHD__NT_FIXED_ARRAY:
		err = get_uint(nt, c, 2, &count, "array count");
		if (err)
			return err;
		t->count = (uint16_t)count;
		t->size = mp->m->types[elem].size * t->count;
		if (nt->strict && !count)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "fixed array of 0 elements (TraceEvent reads it as counted)");
		if (nt->strict && t->size >= FIXED_ARRAY_MAX)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "fixed array of %u bytes (TraceEvent refuses 65,515 or more)",
					    t->size);
		break;
	case EHD__NT_RELLOC:
	case EHD__NT_DATALOC:
		if (!mp->m->types[elem].size)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "RelLoc/DataLoc of variable-size elements");
		break;
	case EHD__NT_OBJECT:
		t->size = 0;
		for (i = 0; i < nf; i++) {
			uint32_t fs = mp->m->types[mp->m->fields[first + i].type].size;

			if (!fs) {
				t->size = 0;
				break;
			}
			t->size += fs;
		}
		break;
	default:
		break;
	}
	*type = (uint32_t)idx;
	return 0;
}

static int parse_fields(struct meta_parse *mp, struct cur *c, uint32_t *first,
			uint32_t *n, int depth)
{
	struct ehd__nt *nt = mp->nt;
	struct nt_meta *m = mp->m;
	uint64_t count, size, i;
	size_t idx, k;
	const char *name;
	size_t name_len;
	struct cur f;
	int err;

	err = get_uint(nt, c, 2, &count, "field count");
	if (err)
		return err;
	/* The fields of one list are consecutive: reserve them first. */
	if (m->nfields + count > mp->fields_cap) {
		size_t cap = (m->nfields + (size_t)count) * 2 + 8;
		struct nt_field *fl = realloc(m->fields, cap * sizeof(*fl));
		size_t *na = realloc(mp->name_at, cap * sizeof(*na));

		if (fl)
			m->fields = fl;
		if (na)
			mp->name_at = na;
		if (!fl || !na)
			return ehd__nt_fail(nt, -ENOMEM, cur_off(c), "out of memory");
		mp->fields_cap = cap;
	}
	*first = (uint32_t)m->nfields;
	*n = (uint32_t)count;
	idx = m->nfields;
	m->nfields += (size_t)count;
	for (i = 0; i < count; i++, idx++) {
		memset(&m->fields[idx], 0, sizeof(m->fields[idx]));
		err = get_uint(nt, c, 2, &size, "field size");
		if (!err && (uint64_t)(c->end - c->p) < size)
			err = short_read(nt, c, "field");
		if (err)
			return err;
		f = *c;
		f.end = c->p + size;
		c->p += size;
		err = get_string(nt, &f, &name, &name_len, "field name");
		if (err)
			return err;
		for (k = 0; k < name_len && name[k]; k++)
			;
		mp->name_at[idx] = strs_add(&mp->strs, name, k);
		err = parse_type(mp, &f, &m->fields[idx].type, depth);
		if (err)
			return err;
	}
	return 0;
}

/* Read the hints of "ehd:fields" into the fields, in pre-order. */
static void apply_hints(struct nt_meta *m, const char *s, size_t len)
{
	size_t n = 0, k;
	const char *end = s + len, *p = s;

	/* A hint per field, or none. */
	for (k = 0; k < len; k++)
		n += s[k] == ',';
	if (!len || n + 1 != m->nfields)
		return;
	/*
	 * Fields are stored list by list; pre-order visits a field, then its
	 * object's fields. Walk the tree to match hints to fields.
	 */
	{
		uint32_t stack[DEPTH_MAX * 2 + 2], pos[DEPTH_MAX * 2 + 2];
		uint32_t cnt[DEPTH_MAX * 2 + 2];
		int sp = 0;

		stack[0] = m->top;
		cnt[0] = m->ntop;
		pos[0] = 0;
		while (sp >= 0) {
			struct nt_field *f;
			const struct nt_type *t;
			unsigned long enc, fmt, tag = 0;
			char *e;

			if (pos[sp] == cnt[sp]) {
				sp--;
				continue;
			}
			f = &m->fields[stack[sp] + pos[sp]++];
			if (p >= end)
				return;
			enc = strtoul(p, &e, 16);
			if (*e != '.')
				return;
			fmt = strtoul(e + 1, &e, 16);
			if (*e == '.')
				tag = strtoul(e + 1, &e, 16);
			f->kind = 0;
			if (*e == ':' && (e[1] == 'c' || e[1] == 'p')) {
				f->kind = e[1];
				e += 2;
			}
			if (*e != ',' && e != end)
				return;
			f->enc = (uint8_t)enc;
			f->fmt = (uint8_t)fmt;
			f->tag = (uint16_t)tag;
			f->hinted = true;
			p = e + 1;
			/* Descend into objects (of arrays too). */
			t = &m->types[f->type];
			while (t->code != EHD__NT_OBJECT && (t->code == EHD__NT_ARRAY ||
							     t->code == EHD__NT_FIXED_ARRAY ||
							     t->code == EHD__NT_RELLOC ||
							     t->code == EHD__NT_DATALOC))
				t = &m->types[t->elem];
			if (t->code == EHD__NT_OBJECT && sp + 1 < DEPTH_MAX * 2 + 2) {
				sp++;
				stack[sp] = t->first;
				cnt[sp] = t->n;
				pos[sp] = 0;
			}
		}
	}
}

/* Where metadata @id is in nt->metas, or -1. */
static long meta_index(const struct ehd__nt *nt, uint32_t id)
{
	size_t pos = 0;
	uint32_t v;

	while (ehd__table_next(&nt->meta_ids, id, &pos, &v))
		if (nt->metas[v] && nt->metas[v]->id == id)
			return v;
	return -1;
}

static struct nt_meta *find_meta(const struct ehd__nt *nt, uint32_t id)
{
	long i = meta_index(nt, id);

	return i < 0 ? NULL : nt->metas[i];
}

static int add_meta_row(struct ehd__nt *nt, struct nt_meta *m,
			uint64_t offset);

/* Our keys: the EventHeader identity of an event type. */
static void eventheader_identity(struct nt_meta *m, const char *header)
{
	unsigned int v[6];
	struct ehd_event_info *info = &m->info;

	if (sscanf(header, "%x,%x,%x,%x,%x,%x", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5]) != 6 || !m->tracepoint)
		return;
	memset(info, 0, sizeof(*info));
	info->header.flags = (uint8_t)v[0];
	info->header.version = (uint8_t)v[1];
	info->header.id = (uint16_t)v[2];
	info->header.tag = (uint16_t)v[3];
	info->header.opcode = (uint8_t)v[4];
	info->header.level = (uint8_t)v[5];
	if (ehd__eh_tracepoint(info, m->tracepoint, m->tracepoint_len))
		return;
	m->eventheader = true;
}

int ehd__nt_add_metadata(struct ehd__nt *nt, const uint8_t *row, size_t len,
			 uint64_t offset)
{
	struct cur c = { row, row, row + len, offset };
	struct meta_parse mp = { nt, NULL, { EHD_BUF_INIT }, NULL, 0, 0 };
	const char *prov, *name, *key, *val, *header = NULL, *full = NULL;
	size_t prov_len, name_len, key_len, val_len, i;
	size_t prov_at, name_at, tp_at = SIZE_MAX, full_at = SIZE_MAX;
	size_t hints_at = SIZE_MAX, hints_len = 0, header_at = SIZE_MAX;
	uint64_t id, event_id, size, kind, v;
	const uint8_t *fields_start, *p;
	struct nt_meta *m;
	struct cur opt;
	int err;

	m = calloc(1, sizeof(*m));
	if (!m)
		return ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
	mp.m = m;
	err = get_var(nt, &c, 5, &id, "metadata id");
	if (!err)
		err = get_string(nt, &c, &prov, &prov_len, "provider name");
	if (!err)
		err = get_var(nt, &c, 5, &event_id, "event id");
	if (!err)
		err = get_string(nt, &c, &name, &name_len, "event name");
	if (err)
		goto out;
	m->id = (uint32_t)id;
	m->event_id = (uint32_t)event_id;
	prov_at = strs_add(&mp.strs, prov, prov_len);
	name_at = strs_add(&mp.strs, name, name_len);
	m->provider_len = prov_len;
	m->name_len = name_len;
	fields_start = c.p;
	err = parse_fields(&mp, &c, &m->top, &m->ntop, 0);
	if (err)
		goto out;
	if (nt->strict) {
		m->fields_raw_len = (size_t)(c.p - fields_start);
		m->fields_raw = malloc(m->fields_raw_len + 1);
		if (!m->fields_raw) {
			err = ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
			goto out;
		}
		memcpy((void *)m->fields_raw, fields_start, m->fields_raw_len);
	}
	err = get_uint(nt, &c, 2, &size, "optional metadata size");
	if (!err && (uint64_t)(c.end - c.p) < size)
		err = short_read(nt, &c, "optional metadata");
	if (err)
		goto out;
	opt = c;
	opt.end = c.p + size;
	while (opt.p < opt.end) {
		uint64_t at = cur_off(&opt);

		err = get_uint(nt, &opt, 1, &kind, "optional metadata kind");
		if (err)
			goto out;
		switch (kind) {
		case EHD__NT_OPT_OPCODE:
			err = get_uint(nt, &opt, 1, &v, "opcode");
			m->opcode = (uint8_t)v;
			m->has_opcode = true;
			break;
		case EHD__NT_OPT_KEYWORD:
			err = get_uint(nt, &opt, 8, &m->keyword, "keyword");
			break;
		case EHD__NT_OPT_MESSAGE:
		case EHD__NT_OPT_DESCRIPTION:
			err = get_string(nt, &opt, &val, &val_len, "text");
			break;
		case EHD__NT_OPT_KEY_VALUE:
			err = get_string(nt, &opt, &key, &key_len, "key");
			if (!err)
				err = get_string(nt, &opt, &val, &val_len, "value");
			if (err)
				break;
#define KEY_IS(k) (key_len == sizeof(k) - 1 && !memcmp(key, k, key_len))
			if (KEY_IS("ehd:fields")) {
				hints_at = strs_add(&mp.strs, val, val_len);
				hints_len = val_len;
			} else if (KEY_IS("ehd:header")) {
				header_at = strs_add(&mp.strs, val, val_len);
			} else if (KEY_IS("ehd:tracepoint")) {
				tp_at = strs_add(&mp.strs, val, val_len);
				m->tracepoint_len = val_len;
			} else if (KEY_IS("ehd:name")) {
				full_at = strs_add(&mp.strs, val, val_len);
			}
#undef KEY_IS
			break;
		case EHD__NT_OPT_PROVIDER_GUID:
			err = get_bytes(nt, &opt, 16, &p, "provider GUID");
			break;
		case EHD__NT_OPT_LEVEL:
			err = get_uint(nt, &opt, 1, &v, "level");
			m->level = (uint8_t)v;
			break;
		case EHD__NT_OPT_VERSION:
			err = get_uint(nt, &opt, 1, &v, "version");
			m->version = (uint8_t)v;
			/* TraceLog asserts Version <= 10 || Version == 255. */
			if (!err && nt->strict && v > 10 && v != 255)
				err = ehd__nt_fail(nt, -EBADMSG, at,
						   "metadata %u: version %u (TraceLog takes 0 to 10 and 255)",
						   m->id, (unsigned int)v);
			break;
		default:
			err = ehd__nt_fail(nt, -EBADMSG, at,
					   "unknown optional metadata kind %u",
					   (unsigned int)kind);
		}
		if (err)
			goto out;
	}
	if (nt->strict && !m->has_opcode)
		err = ehd__nt_fail(nt, -EBADMSG, offset,
				   "metadata %u has no OpCode (TraceEvent strips Start/Stop from names)",
				   m->id);
	if (nt->strict && !m->id)
		err = ehd__nt_fail(nt, -EBADMSG, offset, "metadata id 0");
	if (err)
		goto out;
	if (mp.strs.b.err) {
		err = ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
		goto out;
	}
	/* Strings are settled: point into them. */
	m->strings = mp.strs.b.p ? mp.strs.b.p : calloc(1, 1);
	mp.strs.b.p = NULL;
	if (!m->strings) {
		err = ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
		goto out;
	}
	m->provider = m->strings + prov_at;
	m->name = m->strings + name_at;
	for (i = 0; i < m->nfields; i++)
		m->fields[i].name = m->strings + mp.name_at[i];
	if (tp_at != SIZE_MAX)
		m->tracepoint = m->strings + tp_at;
	if (header_at != SIZE_MAX)
		header = m->strings + header_at;
	if (full_at != SIZE_MAX)
		full = m->strings + full_at;
	if (hints_at != SIZE_MAX)
		apply_hints(m, m->strings + hints_at, hints_len);
	if (header)
		eventheader_identity(m, header);
	if (m->eventheader) {
		m->info.name = full ? full : m->name;
		m->info.name_len = (uint16_t)m->name_len;
	}
	m->raw = hints_at != SIZE_MAX && !header && m->ntop == 1 &&
		 !strcmp(m->fields[m->top].name, "raw") && !m->tracepoint;
	m->classic = hints_at != SIZE_MAX && !header && !m->raw;
	err = 0;
out:
	free(mp.name_at);
	ehd__buf_free(&mp.strs.b);
	if (err) {
		meta_free(m);
		return err;
	}
	return add_meta_row(nt, m, offset);
}

/* Keep a parsed row: a new id, or (not strict) a replacement. */
static int add_meta_row(struct ehd__nt *nt, struct nt_meta *m, uint64_t offset)
{
	struct nt_meta *old = find_meta(nt, m->id);
	uint64_t key = ehd__hash_bytes(m->provider, m->provider_len, 0x33) ^
		       m->event_id;
	size_t pos = 0;
	uint32_t v;

	if (old && nt->strict) {
		meta_free(m);
		return ehd__nt_fail(nt, -EBADMSG, offset,
				    "metadata id %u defined twice", old->id);
	}
	if (nt->strict) {
		/* TraceEvent binds (provider, event id) to its first row. */
		while (ehd__table_next(&nt->event_ids, key, &pos, &v)) {
			const struct nt_meta *o = nt->metas[v];

			if (o && o->event_id == m->event_id &&
			    o->provider_len == m->provider_len &&
			    !memcmp(o->provider, m->provider, m->provider_len) &&
			    (o->fields_raw_len != m->fields_raw_len ||
			     memcmp(o->fields_raw, m->fields_raw,
				    m->fields_raw_len))) {
				int id = (int)m->event_id;

				meta_free(m);
				return ehd__nt_fail(nt, -EBADMSG, offset,
						    "event id %d of this provider already names other fields",
						    id);
			}
		}
	}
	if (old) {
		nt->metas[meta_index(nt, m->id)] = m;
		meta_free(old);
		return 0;
	}
	if (ehd__grow(&nt->metas, &nt->metas_cap, nt->nmetas + 1,
		      sizeof(*nt->metas))) {
		meta_free(m);
		return ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
	}
	nt->metas[nt->nmetas] = m;
	if (ehd__table_add(&nt->meta_ids, m->id, (uint32_t)nt->nmetas) ||
	    (nt->strict && ehd__table_add(&nt->event_ids, key,
					  (uint32_t)nt->nmetas))) {
		meta_free(m);
		return ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
	}
	nt->nmetas++;
	return 0;
}

static void flush_metadata(struct ehd__nt *nt)
{
	while (nt->nmetas)
		meta_free(nt->metas[--nt->nmetas]);
	ehd__table_clear(&nt->meta_ids);
	ehd__table_clear(&nt->event_ids);
}

static int metadata_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t hsize, size;
	const uint8_t *p;
	int err;

	err = get_uint(nt, c, 2, &hsize, "metadata header size");
	if (!err)
		err = get_bytes(nt, c, (size_t)hsize, &p, "metadata header");
	while (!err && c->p < c->end) {
		uint64_t at;

		err = get_uint(nt, c, 2, &size, "metadata row size");
		at = cur_off(c);
		if (!err)
			err = get_bytes(nt, c, (size_t)size, &p, "metadata row");
		if (!err)
			err = ehd__nt_add_metadata(nt, p, (size_t)size, at);
	}
	return err;
}

/* ---- threads ---- */

/* The row of thread @index, live or removed: its position in *@slot. */
static bool thread_slot(const struct ehd__nt *nt, uint64_t index,
			uint32_t *slot)
{
	size_t pos = 0;

	while (ehd__table_next(&nt->thread_ids, index, &pos, slot))
		if (nt->threads[*slot].index == index)
			return true;
	return false;
}

static struct nt_thread *find_thread(const struct ehd__nt *nt, uint64_t index)
{
	size_t pos = 0;
	uint32_t v;

	while (ehd__table_next(&nt->thread_ids, index, &pos, &v))
		if (nt->threads[v].index == index && nt->threads[v].live)
			return &nt->threads[v];
	return NULL;
}

/* Keep a thread row's string @s of @len bytes whole; *@at gets where. */
static int keep_name(struct ehd__nt *nt, size_t *at, const char *s,
		     size_t len)
{
	struct ehd_buf *b = &nt->thread_names;

	*at = 0;
	if (!len)
		return 0;
	if (!b->len)
		ehd__buf_putc(b, 0);	/* offset 0: no name */
	*at = b->len;
	ehd__buf_put(b, s, len);
	ehd__buf_putc(b, 0);
	return b->err ? ehd__nt_fail(nt, -ENOMEM, 0, "out of memory") : 0;
}

/* A name kept by keep_name(), or NULL for none. */
static const char *thread_name(const struct ehd__nt *nt, size_t at)
{
	return at ? nt->thread_names.p + at : NULL;
}

static int thread_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t size, index, kind, v;
	bool key_is_process;
	uint32_t slot;
	const char *s;
	size_t len;
	struct cur r;
	int err = 0;

	while (!err && c->p < c->end) {
		struct nt_thread t = { 0 };
		uint64_t at = cur_off(c);

		err = get_uint(nt, c, 2, &size, "thread row size");
		if (!err && (uint64_t)(c->end - c->p) < size)
			err = short_read(nt, c, "thread row");
		if (err)
			break;
		r = *c;
		r.end = c->p + size;
		c->p += size;
		err = get_var(nt, &r, 10, &index, "thread index");
		while (!err && r.p < r.end) {
			uint64_t kat = cur_off(&r);

			err = get_uint(nt, &r, 1, &kind, "thread info kind");
			if (err)
				break;
			switch (kind) {
			case EHD__NT_THREAD_NAME:
				err = get_string(nt, &r, &s, &len, "thread name");
				if (!err)
					err = keep_name(nt, &t.name, s, len);
				break;
			case EHD__NT_THREAD_PID:
				err = get_var(nt, &r, 10, &v, "process id");
				t.pid = (uint32_t)v;
				t.has_pid = true;
				break;
			case EHD__NT_THREAD_TID:
				err = get_var(nt, &r, 10, &v, "thread id");
				t.tid = (uint32_t)v;
				t.has_tid = true;
				break;
			case EHD__NT_THREAD_KEY_VALUE:
				err = get_string(nt, &r, &s, &len, "key");
				key_is_process = !err && len == 11 &&
						 !memcmp(s, "ProcessName", 11);
				if (!err)
					err = get_string(nt, &r, &s, &len, "value");
				if (!err && key_is_process)
					err = keep_name(nt, &t.process, s, len);
				break;
			default:
				err = ehd__nt_fail(nt, -EBADMSG, kat,
						   "unknown thread info kind %u",
						   (unsigned int)kind);
			}
		}
		if (err)
			break;
		if (find_thread(nt, index) && nt->strict)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "thread index %llu defined twice",
					    (unsigned long long)index);
		t.index = index;
		t.live = true;
		/* An index seen before (live or removed) is replaced. */
		if (thread_slot(nt, index, &slot)) {
			nt->threads[slot] = t;
			continue;
		}
		if (ehd__grow(&nt->threads, &nt->threads_cap, nt->nthreads + 1,
			      sizeof(*nt->threads)))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		nt->threads[nt->nthreads] = t;
		if (ehd__table_add(&nt->thread_ids, index, (uint32_t)nt->nthreads))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		nt->nthreads++;
	}
	return err;
}

static void flush_threads(struct ehd__nt *nt)
{
	nt->nthreads = 0;
	ehd__table_clear(&nt->thread_ids);
}

static int remove_thread_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t index, seq;
	struct nt_thread *t;
	int err = 0;

	while (!err && c->p < c->end) {
		uint64_t at = cur_off(c);

		err = get_var(nt, c, 10, &index, "thread index");
		if (!err)
			err = get_var(nt, c, 5, &seq, "sequence number");
		if (err)
			break;
		t = find_thread(nt, index);
		if (t)
			t->live = false;
		else if (nt->strict)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "removing unknown thread index %llu",
					    (unsigned long long)index);
	}
	return err;
}

/* ---- stacks and labels ---- */

int ehd__nt_add_stacks(struct ehd__nt *nt, const uint8_t *p, size_t len,
		       uint64_t offset)
{
	struct cur c = { p, p, p + len, offset };
	uint64_t first, count, size, n, i, seen = 0;
	uint32_t ptr = nt->pointer_size == 4 ? 4 : 8, v, slot = 0;
	bool dup;
	const uint8_t *ips;
	size_t pos;
	int err;

	err = get_uint(nt, &c, 4, &first, "first stack id");
	if (!err)
		err = get_uint(nt, &c, 4, &count, "stack count");
	for (; !err && c.p < c.end; first++) {
		uint64_t at = cur_off(&c);

		err = get_uint(nt, &c, 4, &size, "stack size");
		if (!err)
			err = get_bytes(nt, &c, (size_t)size, &ips, "stack");
		if (err)
			break;
		if (nt->strict && (size % ptr || size > STACK_BYTES_MAX))
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "stack of %llu bytes (a multiple of %u, at most %u)",
					    (unsigned long long)size, ptr,
					    STACK_BYTES_MAX);
		pos = 0;
		dup = false;
		while (ehd__table_next(&nt->stack_ids, first, &pos, &v))
			if (nt->stacks[v].id == (uint32_t)first)
				dup = true, slot = v;
		if (nt->strict && dup)
			return ehd__nt_fail(nt, -EBADMSG, at,
					    "stack id %llu defined twice",
					    (unsigned long long)first);
		n = size / ptr;
		if (ehd__grow(&nt->stack_ips, &nt->ips_cap,
			      nt->nips + (size_t)n, sizeof(*nt->stack_ips)) ||
		    ehd__grow(&nt->stacks, &nt->stacks_cap, nt->nstacks + 1,
			      sizeof(*nt->stacks)))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		if (!dup)
			slot = (uint32_t)nt->nstacks;	/* else replaced */
		nt->stacks[slot].id = (uint32_t)first;
		nt->stacks[slot].at = nt->nips;
		nt->stacks[slot].count = (size_t)n;
		for (i = 0; i < n; i++)
			nt->stack_ips[nt->nips++] = ehd__load_uint(ips + i * ptr,
								   ptr, 0);
		seen++;
		if (dup)
			continue;
		if (ehd__table_add(&nt->stack_ids, first, (uint32_t)nt->nstacks))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		nt->nstacks++;
	}
	/* TraceEvent reads to the block's end; its count should agree. */
	if (!err && nt->strict && seen != count)
		return ehd__nt_fail(nt, -EBADMSG, offset,
				    "stack block says %llu stacks, holds %llu",
				    (unsigned long long)count,
				    (unsigned long long)seen);
	return err;
}

static const struct nt_stack *find_stack(const struct ehd__nt *nt, uint32_t id)
{
	size_t pos = 0;
	uint32_t v;

	while (ehd__table_next(&nt->stack_ids, id, &pos, &v))
		if (nt->stacks[v].id == id)
			return &nt->stacks[v];
	return NULL;
}

static const struct nt_labels *find_labels(const struct ehd__nt *nt,
					   uint32_t id)
{
	size_t pos = 0;
	uint32_t v;

	while (ehd__table_next(&nt->label_ids, id, &pos, &v))
		if (nt->labels[v].id == id)
			return &nt->labels[v];
	return NULL;
}

static int label_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t first, count, kind, v;
	const uint8_t *p;
	const char *s;
	size_t len;
	int err;

	err = get_uint(nt, c, 4, &first, "first label list index");
	if (!err)
		err = get_uint(nt, c, 4, &count, "label list count");
	if (!err && nt->strict && !first)
		return ehd__nt_fail(nt, -EBADMSG, cur_off(c) - 8,
				    "label list index 0");
	while (!err && c->p < c->end) {
		struct nt_labels l = { 0 };
		uint64_t at = cur_off(c);
		size_t pos = 0;
		uint32_t old;

		l.id = (uint32_t)first++;
		do {
			uint64_t kat = cur_off(c);

			err = get_uint(nt, c, 1, &kind, "label kind");
			if (err)
				break;
			switch (kind & 0x7f) {
			case EHD__NT_LABEL_ACTIVITY:
				err = get_bytes(nt, c, 16, &p, "activity id");
				if (!err)
					ehd__nt_guid_swap(l.activity, p);
				l.has_activity = true;
				break;
			case EHD__NT_LABEL_RELATED:
				err = get_bytes(nt, c, 16, &p, "related activity id");
				if (!err)
					ehd__nt_guid_swap(l.related, p);
				l.has_related = true;
				break;
			case EHD__NT_LABEL_TRACE_ID:
				err = get_bytes(nt, c, 16, &p, "trace id");
				break;
			case EHD__NT_LABEL_SPAN_ID:
				err = get_uint(nt, c, 8, &v, "span id");
				break;
			case EHD__NT_LABEL_KV_STRING:
				err = get_string(nt, c, &s, &len, "key");
				if (!err)
					err = get_string(nt, c, &s, &len, "value");
				break;
			case EHD__NT_LABEL_KV_VARINT:
				err = get_string(nt, c, &s, &len, "key");
				if (!err)
					err = get_var(nt, c, 10, &v, "value");
				break;
			case EHD__NT_LABEL_OPCODE:
				err = get_uint(nt, c, 1, &v, "opcode");
				l.opcode = (uint8_t)v;
				l.has_opcode = true;
				break;
			case EHD__NT_LABEL_KEYWORD:
				err = get_uint(nt, c, 8, &l.keyword, "keywords");
				l.has_keyword = true;
				break;
			case EHD__NT_LABEL_LEVEL:
				err = get_uint(nt, c, 1, &v, "level");
				l.level = (uint8_t)v;
				l.has_level = true;
				break;
			case EHD__NT_LABEL_VERSION:
				err = get_uint(nt, c, 1, &v, "version");
				l.version = (uint8_t)v;
				l.has_version = true;
				break;
			default:
				err = ehd__nt_fail(nt, -EBADMSG, kat,
						   "unknown label kind %u",
						   (unsigned int)(kind & 0x7f));
			}
		} while (!err && !(kind & EHD__NT_LABEL_LAST));
		if (err)
			break;
		while (ehd__table_next(&nt->label_ids, l.id, &pos, &old))
			if (nt->labels[old].id == l.id)
				break;
		if (pos && nt->labels[old].id == l.id) {
			if (nt->strict)
				return ehd__nt_fail(nt, -EBADMSG, at,
						    "label list %u defined twice",
						    l.id);
			nt->labels[old] = l;	/* replaced */
			continue;
		}
		if (ehd__grow(&nt->labels, &nt->labels_cap, nt->nlabels + 1,
			      sizeof(*nt->labels)))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		nt->labels[nt->nlabels] = l;
		if (ehd__table_add(&nt->label_ids, l.id, (uint32_t)nt->nlabels))
			return ehd__nt_fail(nt, -ENOMEM, at, "out of memory");
		nt->nlabels++;
	}
	return err;
}

void ehd__nt_sequence_point(struct ehd__nt *nt, unsigned int flags)
{
	nt->nstacks = nt->nips = 0;
	ehd__table_clear(&nt->stack_ids);
	nt->nlabels = 0;
	ehd__table_clear(&nt->label_ids);
	if (flags & EHD__NT_SP_FLUSH_THREADS)
		flush_threads(nt);
	if (flags & EHD__NT_SP_FLUSH_METADATA)
		flush_metadata(nt);
	nt->cur_capture_valid = 0;
}

/* ---- sequence numbers ---- */

/* Check @seq on @capture; counts gaps as lost events. */
static int check_seq(struct ehd__nt *nt, uint64_t capture, uint32_t seq,
		     uint64_t offset)
{
	size_t pos = 0;
	uint32_t v;
	uint64_t key = capture * 0x9e3779b97f4a7c15ull;

	if (ehd__table_next(&nt->seqs, key, &pos, &v)) {
		uint32_t expect = nt->seq_vals[v] + 1;

		if (seq != expect) {
			if ((int32_t)(seq - expect) < 0 && nt->strict)
				return ehd__nt_fail(nt, -EBADMSG, offset,
						    "sequence number %u after %u on capture thread %llu",
						    seq, expect - 1,
						    (unsigned long long)capture);
			if ((int32_t)(seq - expect) > 0)
				nt->lost += seq - expect;
		}
		nt->seq_vals[v] = seq;
		return 0;
	}
	if (nt->strict && seq != 1)
		return ehd__nt_fail(nt, -EBADMSG, offset,
				    "capture thread %llu starts at sequence number %u, not 1",
				    (unsigned long long)capture, seq);
	if (ehd__grow(&nt->seq_vals, &nt->seqs_cap, nt->nseqs + 1,
		      sizeof(*nt->seq_vals)))
		return ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
	nt->seq_vals[nt->nseqs] = seq;
	if (ehd__table_add(&nt->seqs, key, (uint32_t)nt->nseqs))
		return ehd__nt_fail(nt, -ENOMEM, offset, "out of memory");
	nt->nseqs++;
	return 0;
}

/* ---- the trace ---- */

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void ehd__nt_set_trace(struct ehd__nt *nt, const struct ehd__nt_trace *t,
		       unsigned int version)
{
	nt->version = version;
	nt->have_trace = true;
	nt->context = EHD_CTX_TIME | EHD_CTX_CPU | EHD_CTX_PID;
	nt->sync_ticks = t->sync_ticks;
	nt->freq = t->tick_frequency ? t->tick_frequency : 1;
	/* Any date a file holds: computed modulo 2^64, as times are. */
	nt->sync_utc_ns = (uint64_t)(days_from_civil(t->year, t->month, t->day) *
				     86400 + t->hour * 3600 + t->minute * 60 +
				     t->second) * 1000000000u +
			  (uint64_t)((int64_t)t->ms * 1000000);
	nt->pointer_size = t->pointer_size;
	nt->process_id = t->process_id;
	nt->info.nr_cpus_online = t->cpus;
	nt->info.long_size = t->pointer_size;
}

static int trace_block(struct ehd__nt *nt, struct cur *c)
{
	struct ehd__nt_trace t = { 0 };
	int16_t *date[] = { &t.year, &t.month, &t.day_of_week, &t.day,
			    &t.hour, &t.minute, &t.second, &t.ms };
	uint64_t v, n, i;
	const char *k, *val;
	size_t klen, vlen;
	int err = 0;

	for (i = 0; i < 8 && !err; i++) {
		err = get_uint(nt, c, 2, &v, "trace time");
		*date[i] = (int16_t)v;
	}
	if (!err)
		err = get_uint(nt, c, 8, &t.sync_ticks, "sync ticks");
	if (!err)
		err = get_uint(nt, c, 8, &t.tick_frequency, "tick frequency");
	if (!err)
		err = get_uint(nt, c, 4, &v, "pointer size");
	t.pointer_size = (uint32_t)v;
	if (!err)
		err = get_uint(nt, c, 4, &n, "key-value count");
	if (err)
		return err;
	if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 ||
	    (nt->strict && (t.hour > 23 || t.minute > 59 || t.second > 59 ||
			    t.ms > 999 || !t.tick_frequency)))
		return ehd__nt_fail(nt, -EBADMSG, c->off,
				    "trace block: invalid sync time or tick frequency");
	if (nt->strict && !t.sync_ticks)
		return ehd__nt_fail(nt, -EBADMSG, c->off,
				    "trace block: sync time at tick 0 (TraceEvent takes it for no time)");
	for (i = 0; i < n && !err; i++) {
		err = get_string(nt, c, &k, &klen, "key");
		if (!err)
			err = get_string(nt, c, &val, &vlen, "value");
		if (err)
			break;
		ehd__buf_put(&nt->kv, k, klen);
		ehd__buf_putc(&nt->kv, 0);
		ehd__buf_put(&nt->kv, val, vlen);
		ehd__buf_putc(&nt->kv, 0);
	}
	ehd__nt_set_trace(nt, &t, 6);
	return err ? err : nt->kv.err;
}

/* The trace's key-value pairs, once the strings are settled. */
static void trace_keys(struct ehd__nt *nt)
{
	struct ehd_trace_info *in = &nt->info;
	const char *p = nt->kv.p, *end = p ? p + nt->kv.len : NULL;

	while (p && p < end) {
		const char *k = p, *v = p + strlen(p) + 1;

		p = v + strlen(v) + 1;
		if (!strcmp(k, "MachineName"))
			in->hostname = v;
		else if (!strcmp(k, "OSRelease"))
			in->osrelease = v;
		else if (!strcmp(k, "Architecture"))
			in->arch = v;
		else if (!strcmp(k, "CpuDescription"))
			in->cpu_desc = v;
		else if (!strcmp(k, "PerfVersion"))
			in->perf_version = v;
		else if (!strcmp(k, "CommandLine"))
			in->cmdline = v;
		else if (!strcmp(k, "HardwareThreadCount"))
			in->nr_cpus_online = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "SystemPageSize"))
			in->page_size = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "PointerSizeOfSource"))
			in->long_size = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "ExpectedCPUSamplingRate"))
			in->cpu_sample_period = strtoull(v, NULL, 10);
		else if (!strcmp(k, "ProcessId"))
			nt->process_id = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "ClockId"))
			in->clockid = ehd__nt_clock_id(v);
		else if (!strcmp(k, "ehd:TimeBase"))
			nt->time_base = !strcmp(v, "clock") ? 1 :
					!strcmp(v, "none") ? 2 : 0;
		else if (!strcmp(k, "ehd:Context"))
			nt->context = (strstr(v, "time") ? EHD_CTX_TIME : 0) |
				      (strstr(v, "cpu") ? EHD_CTX_CPU : 0) |
				      (strstr(v, "pid") ? EHD_CTX_PID : 0);
	}
	if (nt->time_base == 2)
		nt->context &= ~EHD_CTX_TIME;
	in->has_clock_offset = nt->time_base == 0 && nt->freq == 1000000000;
	in->clock_offset = nt->sync_utc_ns - nt->sync_ticks;
}

void ehd__nt_trace_info(const struct ehd__nt *nt, struct ehd_trace_info *info)
{
	*info = nt->info;
}

void ehd__nt_set_procs(struct ehd__nt *nt, struct ehd__procs *ps)
{
	nt->internal.procs = ps;
}

uint64_t ehd__nt_lost(const struct ehd__nt *nt)
{
	return nt->lost;
}

uint64_t ehd__nt_malformed(const struct ehd__nt *nt)
{
	return ehd__ntl_skipped(nt->legacy);
}

uint64_t ehd__nt_dangling(const struct ehd__nt *nt)
{
	return nt->dangling;
}

/* ---- event rows (v6) ---- */

static int event_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t hsize, flags, minmax;
	const uint8_t *p;
	int err;

	err = get_uint(nt, c, 2, &hsize, "event block header size");
	if (!err && hsize < EHD__NT_EB_HEADER_SIZE)
		return ehd__nt_fail(nt, -EBADMSG, c->off,
				    "event block header of %u bytes (at least 20)",
				    (unsigned int)hsize);
	if (!err)
		err = get_uint(nt, c, 2, &flags, "event block flags");
	if (!err)
		err = get_uint(nt, c, 8, &minmax, "minimum time");
	if (!err)
		err = get_uint(nt, c, 8, &minmax, "maximum time");
	if (!err)
		err = get_bytes(nt, c, (size_t)hsize - EHD__NT_EB_HEADER_SIZE, &p,
				"event block header");
	if (err)
		return err;
	if (c->p == c->end && nt->strict && !nt->blk_truncated)
		return ehd__nt_fail(nt, -EBADMSG, c->off,
				    "event block without events");
	nt->blk = c->p;
	nt->blk_end = c->end;
	nt->blk_off = cur_off(c);
	nt->compressed = flags & EHD__NT_EB_COMPRESSED;
	memset(&nt->prev, 0, sizeof(nt->prev));
	return 0;
}

static int read_row(struct ehd__nt *nt, struct ehd__nt_row *row)
{
	struct cur c = { nt->blk, nt->blk, nt->blk_end, nt->blk_off };
	struct ehd__nt_row *pv = &nt->prev;
	uint64_t v = 0, flags = 0, size;
	int err = 0;

	row->offset = cur_off(&c);
	if (nt->compressed) {
		err = get_uint(nt, &c, 1, &flags, "event flags");
		*row = *pv;
		row->offset = cur_off(&c) - 1;
		row->has_seq = true;
		if (!err && (flags & EHD__NT_ROW_METADATA))
			err = get_var(nt, &c, 5, &v, "metadata id"),
			row->meta_id = (uint32_t)v;
		if (!err && (flags & EHD__NT_ROW_CAPTURE)) {
			err = get_var(nt, &c, 5, &v, "sequence delta");
			row->seq = pv->seq + (uint32_t)v + 1;
			if (!err)
				err = get_var(nt, &c, 10, &row->capture_thread,
					      "capture thread");
			if (!err)
				err = get_var(nt, &c, 5, &v, "processor");
			row->cpu = (uint32_t)v;
		} else {
			row->seq = pv->seq + 1;
		}
		if (!err && (flags & EHD__NT_ROW_THREAD))
			err = get_var(nt, &c, 10, &row->thread, "thread index");
		if (!err && (flags & EHD__NT_ROW_STACK))
			err = get_var(nt, &c, 5, &v, "stack id"),
			row->stack_id = (uint32_t)v;
		if (!err)
			err = get_var(nt, &c, 10, &v, "time delta");
		row->timestamp = pv->timestamp + v;
		if (!err && (flags & EHD__NT_ROW_LABELS))
			err = get_var(nt, &c, 5, &v, "label list"),
			row->label_list = (uint32_t)v;
		row->sorted = flags & EHD__NT_ROW_SORTED;
		if (!err && (flags & EHD__NT_ROW_PAYLOAD))
			err = get_var(nt, &c, 5, &v, "payload size"),
			row->payload_size = (uint32_t)v;
	} else {
		uint64_t meta = 0;

		err = get_uint(nt, &c, 4, &size, "event size");
		if (!err)
			err = get_uint(nt, &c, 4, &meta, "metadata id");
		row->meta_id = (uint32_t)(meta & 0x7fffffff);
		row->sorted = !(meta & 0x80000000u);
		if (!err)
			err = get_uint(nt, &c, 4, &v, "sequence number");
		row->seq = (uint32_t)v;
		row->has_seq = true;
		if (!err)
			err = get_uint(nt, &c, 8, &row->thread, "thread index");
		if (!err)
			err = get_uint(nt, &c, 8, &row->capture_thread,
				       "capture thread");
		if (!err)
			err = get_uint(nt, &c, 4, &v, "processor");
		row->cpu = (uint32_t)v;
		if (!err)
			err = get_uint(nt, &c, 4, &v, "stack id");
		row->stack_id = (uint32_t)v;
		if (!err)
			err = get_uint(nt, &c, 8, &row->timestamp, "time");
		if (!err)
			err = get_uint(nt, &c, 4, &v, "label list");
		row->label_list = (uint32_t)v;
		if (!err)
			err = get_uint(nt, &c, 4, &v, "payload size");
		row->payload_size = (uint32_t)v;
	}
	if (!err)
		err = get_bytes(nt, &c, row->payload_size, &row->payload,
				"event payload");
	if (err)
		return err;
	row->os_ids = false;
	row->stack = NULL;
	row->activity = row->related = NULL;
	*pv = *row;
	nt->blk = c.p;
	nt->blk_off = cur_off(&c);
	return 1;
}

static int sequence_point_block(struct ehd__nt *nt, struct cur *c)
{
	uint64_t time, flags, n, i, index, seq;
	int err;

	err = get_uint(nt, c, 8, &time, "sequence point time");
	if (!err)
		err = get_uint(nt, c, 4, &flags, "sequence point flags");
	if (!err)
		err = get_uint(nt, c, 4, &n, "thread count");
	for (i = 0; i < n && !err; i++) {
		size_t pos = 0;
		uint32_t v;

		err = get_var(nt, c, 10, &index, "thread index");
		if (!err)
			err = get_var(nt, c, 5, &seq, "sequence number");
		if (err)
			break;
		if (nt->strict && !find_thread(nt, index))
			return ehd__nt_fail(nt, -EBADMSG, c->off,
					    "sequence point names unknown thread %llu",
					    (unsigned long long)index);
		if (ehd__table_next(&nt->seqs, index * 0x9e3779b97f4a7c15ull,
				    &pos, &v) &&
		    (int32_t)((uint32_t)seq - nt->seq_vals[v]) > 0) {
			nt->lost += (uint32_t)seq - nt->seq_vals[v];
			nt->seq_vals[v] = (uint32_t)seq;
		}
	}
	if (err)
		return err;
	if (nt->strict && nt->have_sp_time && time < nt->last_sp_time)
		return ehd__nt_fail(nt, -EBADMSG, c->off,
				    "sequence point time goes back");
	nt->last_sp_time = time;
	nt->have_sp_time = true;
	nt->last_sorted = 0;
	ehd__nt_sequence_point(nt, (unsigned int)flags);
	return 0;
}

/* Read v6 blocks up to the next event row. */
static int v6_next(struct ehd__nt *nt, struct ehd__nt_row *row)
{
	const uint8_t *p;
	uint32_t h, size, kind;
	struct cur c;
	uint64_t off;
	int err;

	for (;;) {
		if (nt->blk && nt->blk < nt->blk_end) {
			nt->in_truncated = nt->blk_truncated;
			err = read_row(nt, row);
			nt->in_truncated = false;
			if (err != -ENODATA)
				return err;
			nt->blk = NULL;
		}
		nt->blk = NULL;
		if (nt->blk_truncated)
			return ehd__nt_fail(nt, -EBADMSG, nt->trunc_off,
					    "truncated: event block of %u bytes, %u present (the events before the cut were read)",
					    nt->trunc_size, nt->trunc_have);
		if (nt->ended)
			return 0;
		off = ehd__nt_offset(nt);
		err = fill(nt, 4);
		if (!err && !ehd__in_avail(&nt->in))
			return ehd__nt_fail(nt, -EBADMSG, off,
					    "truncated: the stream ends without an EndOfStream block");
		if (!err)
			err = ehd__nt_read(nt, 4, &p);
		if (err)
			return err;
		h = (uint32_t)ehd__load_uint(p, 4, 0);
		size = h & EHD__NT_BLOCK_MAX;
		kind = h >> 24;
		err = fill(nt, size);
		if (!err && ehd__in_avail(&nt->in) < size &&
		    kind == EHD__NT_EVENT && nt->have_trace) {
			/* Cut short: give the whole rows that are there. */
			nt->blk_truncated = true;
			nt->trunc_off = off;
			nt->trunc_size = size;
			nt->trunc_have = (uint32_t)ehd__in_avail(&nt->in);
			size = nt->trunc_have;
		}
		if (!err)
			err = ehd__nt_read(nt, size, &p);
		if (err)
			return err;
		c.p = c.start = p;
		c.end = p + size;
		c.off = off + 4;
		if (!nt->have_trace && kind != EHD__NT_TRACE)
			return ehd__nt_fail(nt, -EBADMSG, off,
					    "block of kind %u before the trace block",
					    kind);
		switch (kind) {
		case EHD__NT_END:
			nt->ended = true;
			return 0;
		case EHD__NT_TRACE:
			if (nt->have_trace)
				return ehd__nt_fail(nt, -EBADMSG, off,
						    "a second trace block");
			err = trace_block(nt, &c);
			if (!err)
				trace_keys(nt);
			break;
		case EHD__NT_EVENT:
			nt->in_truncated = nt->blk_truncated;
			err = event_block(nt, &c);
			nt->in_truncated = false;
			if (err == -ENODATA)
				nt->blk = NULL, err = 0;
			break;
		case EHD__NT_METADATA:
			err = metadata_block(nt, &c);
			break;
		case EHD__NT_SEQUENCE_POINT:
			err = sequence_point_block(nt, &c);
			break;
		case EHD__NT_STACK:
			err = ehd__nt_add_stacks(nt, c.p, size, c.off);
			break;
		case EHD__NT_THREAD:
			err = thread_block(nt, &c);
			break;
		case EHD__NT_REMOVE_THREAD:
			err = remove_thread_block(nt, &c);
			break;
		case EHD__NT_LABEL_LIST:
			err = label_block(nt, &c);
			break;
		default:
			break;	/* unknown blocks are skipped */
		}
		if (err)
			return err;
	}
}

/* ---- fields as enumerator items ---- */

/* Most items one event may give. */
#define ITEMS_MAX (1u << 16)
/* Most values walked for one event, shown or hidden. */
#define STEPS_MAX (1u << 20)

struct walk {
	struct ehd__nt *nt;
	const struct nt_meta *m;
	struct ehd_enum *en;
	const uint8_t *p;	/* the payload */
	size_t size, pos;
	int hide;		/* > 0: walk without items */
	bool common;
	unsigned int items;
	unsigned int steps;	/* walk_type() calls: hidden ones count */
	uint8_t *scratch;	/* converted values, room reserved */
	size_t used, room;
};

static int wfail(struct walk *w, int err, const char *why)
{
	return ehd__enum_fail(w->en, err, w->pos, why);
}

static struct ehd_item *add_item(struct walk *w, int state,
				 const struct nt_field *f)
{
	struct ehd_item *it;

	if (w->hide)
		return NULL;
	if (++w->items > ITEMS_MAX) {
		wfail(w, -E2BIG, "more items than the step limit");
		return NULL;
	}
	it = ehd__enum_add(w->en, state);
	if (!it) {
		wfail(w, -ENOMEM, "out of memory");
		return NULL;
	}
	it->name = f->name;
	it->tag = f->hinted ? f->tag : 0;
	return it;
}

/*
 * Room for a converted value, or NULL. Locations may show the same bytes
 * many times, so the payload does not bound what is converted.
 */
static uint8_t *scratch(struct walk *w, size_t n)
{
	uint8_t *p = w->scratch + w->used;

	if (n > w->room - w->used)
		return NULL;
	w->used += n;
	return p;
}

/* Encoding and format of a value of type @code without a hint. */
static void plain_value(uint8_t code, uint8_t *enc, uint8_t *fmt)
{
	static const struct { uint8_t enc, fmt; } k[EHD__NT_TYPE_MAX] = {
		[EHD__NT_BOOLEAN32] = { EH_ENC_VALUE32, EH_FMT_BOOLEAN },
		[EHD__NT_UTF16_UNIT] = { EH_ENC_VALUE16, EH_FMT_STRING_UTF },
		[EHD__NT_SBYTE] = { EH_ENC_VALUE8, EH_FMT_SIGNED_INT },
		[EHD__NT_BYTE] = { EH_ENC_VALUE8, EH_FMT_UNSIGNED_INT },
		[EHD__NT_INT16] = { EH_ENC_VALUE16, EH_FMT_SIGNED_INT },
		[EHD__NT_UINT16] = { EH_ENC_VALUE16, EH_FMT_UNSIGNED_INT },
		[EHD__NT_INT32] = { EH_ENC_VALUE32, EH_FMT_SIGNED_INT },
		[EHD__NT_UINT32] = { EH_ENC_VALUE32, EH_FMT_UNSIGNED_INT },
		[EHD__NT_INT64] = { EH_ENC_VALUE64, EH_FMT_SIGNED_INT },
		[EHD__NT_UINT64] = { EH_ENC_VALUE64, EH_FMT_UNSIGNED_INT },
		[EHD__NT_SINGLE] = { EH_ENC_VALUE32, EH_FMT_FLOAT },
		[EHD__NT_DOUBLE] = { EH_ENC_VALUE64, EH_FMT_FLOAT },
		[EHD__NT_DECIMAL] = { EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_HEX_BYTES },
		[EHD__NT_DATETIME] = { EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING_UTF },
		[EHD__NT_GUID] = { EH_ENC_VALUE128, EH_FMT_UUID },
		[EHD__NT_UTF16Z] = { EH_ENC_ZSTRING_CHAR16, EH_FMT_STRING_UTF },
		[EHD__NT_VARINT] = { EH_ENC_VALUE64, EH_FMT_SIGNED_INT },
		[EHD__NT_VARUINT] = { EH_ENC_VALUE64, EH_FMT_UNSIGNED_INT },
		[EHD__NT_UTF8_UNIT] = { EH_ENC_VALUE8, EH_FMT_STRING8 },
		[EHD__NT_BOOLEAN8] = { EH_ENC_VALUE8, EH_FMT_BOOLEAN },
	};

	*enc = k[code].enc;
	*fmt = k[code].fmt;
}

static uint8_t enc_size(uint8_t enc)
{
	return enc >= EH_ENC_VALUE8 && enc <= EH_ENC_VALUE128 ?
	       (uint8_t)(1u << (enc - EH_ENC_VALUE8)) : 0;
}

static int walk_type(struct walk *w, const struct nt_field *f, uint32_t type,
		     int state_index, uint16_t index, uint16_t count,
		     uint8_t array_flags);

/* One value of scalar type @t at w->pos. */
static int walk_value(struct walk *w, const struct nt_field *f,
		      const struct nt_type *t, struct ehd_item *it)
{
	const uint8_t *p = w->p + w->pos;
	size_t left = w->size - w->pos, n, k;
	uint8_t enc, fmt, *s;
	uint64_t v;

	plain_value(t->code, &enc, &fmt);
	if (t->size > left)
		return wfail(w, -EBADMSG, "value past the end of the payload");
	n = t->size;
	switch (t->code) {
	case EHD__NT_GUID:
		if (it) {
			s = scratch(w, 16);
			if (!s)
				return wfail(w, -E2BIG, "more converted values than room");
			ehd__nt_guid_swap(s, p);
			p = s;
		}
		break;
	case EHD__NT_VARINT:
	case EHD__NT_VARUINT:
		n = ehd__nt_get_varuint(p, p + left, 10, &v);
		if (!n)
			return wfail(w, -EBADMSG, "bad variable-length integer");
		if (it) {
			if (t->code == EHD__NT_VARINT)
				v = (uint64_t)ehd__nt_unzigzag(v);
			s = scratch(w, 8);
			if (!s)
				return wfail(w, -E2BIG, "more converted values than room");
			memcpy(s, &v, 8);
			p = s;
		}
		break;
	case EHD__NT_DATETIME:
		if (it) {
			int16_t d[8];
			int len;

			for (k = 0; k < 8; k++)
				d[k] = (int16_t)ehd__load_uint(p + 2 * k, 2, 0);
			s = scratch(w, 32);
			if (!s)
				return wfail(w, -E2BIG, "more converted values than room");
			len = snprintf((char *)s, 32,
				       "%04d-%02d-%02dT%02d:%02d:%02d.%03d",
				       d[0], d[1], d[3], d[4], d[5], d[6], d[7]);
			it->value = s;
			it->value_size = (uint32_t)(len > 31 ? 31 : len);
		}
		break;
	case EHD__NT_UTF16Z:
		for (k = 0; k + 2 <= left && (p[k] || p[k + 1]); k += 2)
			;
		if (k + 2 > left)
			return wfail(w, -EBADMSG, "string not terminated");
		n = k + 2;
		if (it) {
			it->value = p;
			it->value_size = (uint32_t)k;
		}
		break;
	default:
		break;
	}
	if (it) {
		if (f->hinted && !(f->enc & EH_ENC_FLAG_MASK & ~EH_ENC_CHAIN_FLAG)) {
			uint8_t he = f->enc & EH_ENC_VALUE_MASK;

			if (t->code == EHD__NT_UTF16Z) {
				if (he == EH_ENC_ZSTRING_CHAR16)
					fmt = f->fmt;
			} else if (enc_size(he) && enc_size(he) == enc_size(enc)) {
				enc = he;
				fmt = f->fmt;
			}
		} else if (f->hinted && enc_size(f->enc & EH_ENC_VALUE_MASK) ==
			   enc_size(enc) && enc_size(enc)) {
			fmt = f->fmt;	/* an element of a hinted array */
		}
		it->encoding = enc;
		it->format = fmt;
		if (t->code != EHD__NT_DATETIME && t->code != EHD__NT_UTF16Z) {
			it->value = p;
			it->value_size = (uint32_t)(t->code == EHD__NT_VARINT ||
						    t->code == EHD__NT_VARUINT ?
						    8 : n);
		}
		if (enc_size(enc))
			it->element_size = enc_size(enc);
	}
	w->pos += n;
	return 0;
}

/*
 * Is this array shown as one value (a string or bytes)? An array that is
 * an element of the field's array (@nested) is, when hinted: the hint's
 * array flags are the outer array's.
 */
static bool array_as_value(const struct nt_field *f, const struct nt_type *e,
			   bool nested)
{
	if (f->hinted)
		return nested ||
		       !(f->enc & (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG));
	return e->code == EHD__NT_UTF16_UNIT || e->code == EHD__NT_UTF8_UNIT ||
	       e->code == EHD__NT_BYTE;
}

/* An array shown as one value: @n elements at @p. */
static int array_value(struct walk *w, const struct nt_field *f,
		       const struct nt_type *t, const struct nt_type *e,
		       const uint8_t *p, size_t n)
{
	struct ehd_item *it = add_item(w, EHD_STATE_VALUE, f);
	size_t bytes = n * e->size;
	uint8_t enc, fmt;

	if (!it)
		return w->hide ? 0 : -ENOMEM;
	/* Text in fixed arrays and locs ends at its first NUL. */
	if (e->code == EHD__NT_UTF8_UNIT && t->code != EHD__NT_ARRAY) {
		const uint8_t *nul = memchr(p, 0, bytes);

		if (nul)
			bytes = (size_t)(nul - p);
	}
	enc = e->code == EHD__NT_UTF16_UNIT ? EH_ENC_STRING_LENGTH16_CHAR16 :
	      e->code == EHD__NT_UTF8_UNIT ? EH_ENC_STRING_LENGTH16_CHAR8 :
	      EH_ENC_BINARY_LENGTH16_CHAR8;
	fmt = e->code == EHD__NT_BYTE ? EH_FMT_HEX_BYTES : EH_FMT_STRING_UTF;
	if (f->hinted) {
		uint8_t he = f->enc & EH_ENC_VALUE_MASK;
		bool wide = e->code == EHD__NT_UTF16_UNIT;
		bool was_text = he == EH_ENC_ZSTRING_CHAR8 ||
				he == EH_ENC_ZSTRING_CHAR32 ||
				he == EH_ENC_STRING_LENGTH16_CHAR8 ||
				he == EH_ENC_STRING_LENGTH16_CHAR32;

		if (wide && was_text) {
			/* Re-encoded as UTF-16 by the writer. */
			enc = EH_ENC_STRING_LENGTH16_CHAR16;
			fmt = EH_FMT_STRING_UTF;
		} else if (he == EH_ENC_VALUE128 ? bytes == 16 :
			   he >= EH_ENC_ZSTRING_CHAR8 && he <= EH_ENC_BINARY_LENGTH16_CHAR8 &&
			   (!e->size || bytes % e->size == 0)) {
			enc = he;
			fmt = f->fmt;
		}
	}
	it->encoding = enc;
	it->format = fmt;
	it->value = p;
	it->value_size = (uint32_t)bytes;
	return 0;
}

static int walk_array(struct walk *w, const struct nt_field *f,
		      const struct nt_type *t, bool nested)
{
	const struct nt_type *e = &w->m->types[t->elem];
	size_t n, i, at, save = 0, bytes;
	struct ehd_item *it;
	uint8_t flags = t->code == EHD__NT_FIXED_ARRAY ? EH_ENC_CARRAY_FLAG :
						       EH_ENC_VARRAY_FLAG;
	bool loc = t->code == EHD__NT_DATALOC || t->code == EHD__NT_RELLOC;
	int err;

	if (f->hinted && !nested &&
	    (f->enc & (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG)))
		flags = f->enc & (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG);
	if (t->code == EHD__NT_FIXED_ARRAY) {
		n = t->count;
	} else if (t->code == EHD__NT_ARRAY) {
		if (w->size - w->pos < 2)
			return wfail(w, -EBADMSG, "array count past the end of the payload");
		n = (size_t)ehd__load_uint(w->p + w->pos, 2, 0);
		w->pos += 2;
	} else {
		uint32_t v;

		if (w->size - w->pos < 4)
			return wfail(w, -EBADMSG, "location past the end of the payload");
		v = (uint32_t)ehd__load_uint(w->p + w->pos, 4, 0);
		at = (v & 0xffff) + (t->code == EHD__NT_RELLOC ? w->pos + 4 : 0);
		bytes = v >> 16;
		if (at > w->size || bytes > w->size - at)
			return wfail(w, -EBADMSG, "location outside the payload");
		n = bytes / e->size;
		save = w->pos + 4;
		w->pos = at;
	}
	if (e->size && (w->size - w->pos) / e->size < n)
		return wfail(w, -EBADMSG, "array past the end of the payload");
	if (array_as_value(f, e, nested) && e->size) {
		err = array_value(w, f, t, e, w->p + w->pos, n);
		w->pos += n * e->size;
	} else {
		it = add_item(w, EHD_STATE_ARRAY_BEGIN, f);
		if (!it && !w->hide)
			return -ENOMEM;
		if (it) {
			uint8_t enc, fmt;

			plain_value(e->code, &enc, &fmt);
			if (e->code == EHD__NT_OBJECT)
				enc = EH_ENC_STRUCT, fmt = (uint8_t)e->n;
			if (f->hinted) {
				enc = f->enc & EH_ENC_VALUE_MASK;
				fmt = f->fmt;
			}
			it->encoding = enc;
			it->format = fmt;
			it->array_flags = flags;
			it->array_count = (uint16_t)n;
			if (e->size && e->size <= 16 && e->code != EHD__NT_OBJECT &&
			    e->code != EHD__NT_GUID) {
				it->element_size = (uint8_t)e->size;
				it->value = w->p + w->pos;
				it->value_size = (uint32_t)(n * e->size);
			}
		}
		err = 0;
		for (i = 0; i < n && !err; i++)
			err = walk_type(w, f, t->elem, 1, (uint16_t)i,
					(uint16_t)n, flags);
		if (!err) {
			it = add_item(w, EHD_STATE_ARRAY_END, f);
			if (!it && !w->hide)
				return -ENOMEM;
			if (it) {
				it->array_flags = flags;
				it->array_count = (uint16_t)n;
			}
		}
	}
	if (loc)
		w->pos = save;
	return err;
}

static int walk_fields(struct walk *w, uint32_t first, uint32_t n)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct nt_field *f = &w->m->fields[first + i];
		bool hide = f->kind == 'p' || (f->kind == 'c' && !w->common);

		w->hide += hide;
		err = walk_type(w, f, f->type, 0, 0, 0, 0);
		w->hide -= hide;
	}
	return err;
}

/*
 * A value of @type for field @f; @in_array: an element @index of @count,
 * in an array of @array_flags.
 */
static int walk_type(struct walk *w, const struct nt_field *f, uint32_t type,
		     int in_array, uint16_t index, uint16_t count,
		     uint8_t array_flags)
{
	const struct nt_type *t = &w->m->types[type];
	struct ehd_item *it;
	int err;

	/* Empty objects in fixed arrays take no payload: count the steps. */
	if (++w->steps > STEPS_MAX)
		return wfail(w, -E2BIG, "more values than the step limit");
	switch (t->code) {
	case EHD__NT_OBJECT:
		it = add_item(w, EHD_STATE_STRUCT_BEGIN, f);
		if (it) {
			it->encoding = EH_ENC_STRUCT;
			it->format = (uint8_t)t->n;
			it->array_index = index;
			it->array_count = count;
			it->array_flags = in_array ? array_flags : 0;
		} else if (!w->hide) {
			return -ENOMEM;
		}
		err = walk_fields(w, t->first, t->n);
		if (err)
			return err;
		it = add_item(w, EHD_STATE_STRUCT_END, f);
		if (it) {
			it->encoding = EH_ENC_STRUCT;
			it->array_index = index;
			it->array_count = count;
			it->array_flags = in_array ? array_flags : 0;
		} else if (!w->hide) {
			return -ENOMEM;
		}
		return 0;
	case EHD__NT_ARRAY:
	case EHD__NT_FIXED_ARRAY:
	case EHD__NT_RELLOC:
	case EHD__NT_DATALOC:
		return walk_array(w, f, t, in_array);
	default:
		it = add_item(w, EHD_STATE_VALUE, f);
		if (!it && !w->hide)
			return -ENOMEM;
		if (it) {
			it->array_index = index;
			it->array_count = count;
			it->array_flags = in_array ? array_flags : 0;
		}
		return walk_value(w, f, t, it);
	}
}

static int fields_of(void *ctx, const struct ehd_event *ev,
		     struct ehd_enum *en, unsigned int flags)
{
	struct ehd__nt *nt = ctx;
	struct walk w = { nt, nt->ev_meta, en, nt->payload, nt->payload_size,
			  0, 0, flags & EHD_FIELDS_COMMON, 0, 0, NULL, 0,
			  (size_t)nt->payload_size * 8 + 64 };
	int err;

	if (ev != &nt->ev || !w.m)
		return -EINVAL;
	ehd__enum_begin_list(en, nt->payload, nt->payload_size);
	if (ev->kind == EHD_EVENT_EVENTHEADER)
		ehd__enum_set_event(en, &nt->ev_info);
	nt->scratch.len = 0;
	if (ehd__buf_reserve(&nt->scratch, (size_t)nt->payload_size * 8 + 64))
		return ehd__enum_fail(en, -ENOMEM, 0, "out of memory");
	w.scratch = (uint8_t *)nt->scratch.p;
	if (!w.m->nfields && nt->payload_size) {
		/* Fields not described (events a manifest describes). */
		static const struct nt_field payload = { .name = "payload" };
		struct ehd_item *it = ehd__enum_add(en, EHD_STATE_VALUE);

		if (!it)
			return ehd__enum_fail(en, -ENOMEM, 0, "out of memory");
		it->name = payload.name;
		it->encoding = EH_ENC_BINARY_LENGTH16_CHAR8;
		it->format = EH_FMT_HEX_BYTES;
		it->value = nt->payload;
		it->value_size = nt->payload_size;
		return 0;
	}
	err = walk_fields(&w, w.m->top, w.m->ntop);
	(void)err;	/* an error ends the items: ehd_enum_next() says it */
	return 0;
}

/* ---- events ---- */

/* Ticks to ns since the sync point (signed, modulo 2^64). */
static uint64_t ticks_ns(const struct ehd__nt *nt, uint64_t ticks)
{
	int64_t d = (int64_t)(ticks - nt->sync_ticks);

	if (nt->freq == 1000000000)
		return (uint64_t)d;
	return (uint64_t)(__int128)((__int128)d * 1000000000 /
				    (__int128)nt->freq);
}

static int make_event(struct ehd__nt *nt, const struct ehd__nt_row *row)
{
	const struct nt_meta *m = find_meta(nt, row->meta_id);
	struct ehd_event *ev = &nt->ev;
	const struct nt_labels *l = NULL;
	const struct nt_thread *t;
	const struct nt_stack *st = NULL;
	bool dangling = false;

	if (!m)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "event of undefined metadata id %u",
				    row->meta_id);
	if (nt->strict && row->payload_size > EHD__NT_PAYLOAD_MAX)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "payload of %u bytes (TraceEvent reads 65,535)",
				    row->payload_size);
	memset(ev, 0, sizeof(*ev));
	nt->internal.fields = fields_of;
	nt->internal.ctx = nt;
	ev->internal = &nt->internal;
	ev->source_offset = row->offset;
	ev->long_size = (uint8_t)(nt->info.long_size ? nt->info.long_size :
				  nt->pointer_size ? nt->pointer_size : 8);
	nt->ev_meta = m;
	nt->payload = row->payload;
	nt->payload_size = row->payload_size;
	ev->data = row->payload;
	ev->size = row->payload_size;
	ev->provider = m->provider;
	ev->provider_len = m->provider_len;
	ev->name = m->name;
	ev->name_len = m->name_len;
	if (!m->name_len) {
		nt->name_scratch.len = 0;
		ehd__buf_printf(&nt->name_scratch, "EventID(%u)", m->event_id);
		ev->name = ehd__buf_cstr(&nt->name_scratch);
		ev->name_len = nt->name_scratch.len;
	}
	ev->tracepoint = m->tracepoint ? m->tracepoint : "";
	ev->tracepoint_len = m->tracepoint ? m->tracepoint_len : 0;

	/* context */
	if (nt->context & EHD_CTX_TIME) {
		ev->context |= EHD_CTX_TIME;
		if (nt->time_base == 0) {
			ev->context |= EHD_CTX_TIME_UTC;
			ev->time = nt->sync_utc_ns + ticks_ns(nt, row->timestamp);
		} else {
			ev->time = nt->freq == 1000000000 ? row->timestamp :
				   (uint64_t)((unsigned __int128)row->timestamp *
					      1000000000 / nt->freq);
		}
	}
	if ((nt->context & EHD_CTX_CPU) && row->cpu != UINT32_MAX) {
		ev->context |= EHD_CTX_CPU;
		ev->cpu = row->cpu;
	}
	if (row->os_ids) {
		ev->context |= EHD_CTX_PID;
		ev->pid = row->pid;
		ev->tid = (uint32_t)row->tid;
	} else {
		t = find_thread(nt, row->thread);
		if (!t && nt->strict)
			return ehd__nt_fail(nt, -EBADMSG, row->offset,
					    "event of unknown thread index %llu",
					    (unsigned long long)row->thread);
		if (nt->strict && !find_thread(nt, row->capture_thread))
			return ehd__nt_fail(nt, -EBADMSG, row->offset,
					    "event of unknown capture thread index %llu",
					    (unsigned long long)row->capture_thread);
		dangling = !t;
		if (t && (t->has_pid || t->has_tid) &&
		    (nt->context & EHD_CTX_PID)) {
			ev->context |= EHD_CTX_PID;
			ev->pid = t->has_pid ? t->pid : nt->process_id;
			ev->tid = t->tid;
			ev->comm = thread_name(nt, t->name);
			ev->process = thread_name(nt, t->process);
		}
	}
	if (row->stack_id) {
		st = find_stack(nt, row->stack_id);
		if (!st && nt->strict)
			return ehd__nt_fail(nt, -EBADMSG, row->offset,
					    "event of unknown stack id %u",
					    row->stack_id);
		dangling |= !st;
	}
	if (st) {
		ev->context |= EHD_CTX_CALLCHAIN;
		ev->callchain = st->count ? nt->stack_ips + st->at : NULL;
		ev->callchain_count = st->count;
	}
	if (row->label_list) {
		l = find_labels(nt, row->label_list);
		if (!l && nt->strict)
			return ehd__nt_fail(nt, -EBADMSG, row->offset,
					    "event of unknown label list %u",
					    row->label_list);
		dangling |= !l;
	}
	nt->dangling += dangling;

	/* identity */
	ev->opcode = l && l->has_opcode ? l->opcode : m->opcode;
	ev->level = l && l->has_level ? l->level : m->level;
	ev->version = l && l->has_version ? l->version : m->version;
	ev->keyword = l && l->has_keyword ? l->keyword : m->keyword;
	if (l && l->has_activity)
		ev->activity_id = l->activity;
	if (l && l->has_related)
		ev->related_id = l->related;
	if (row->activity)
		ev->activity_id = row->activity;
	if (row->related)
		ev->related_id = row->related;
	if (m->eventheader) {
		nt->ev_info = m->info;
		nt->ev_info.activity_id = ev->activity_id;
		nt->ev_info.related_id = ev->related_id;
		ev->kind = EHD_EVENT_EVENTHEADER;
		ev->eh = &nt->ev_info;
		ev->id = m->info.header.id;
		ev->tag = m->info.header.tag;
		ev->opcode = m->info.header.opcode;
		ev->level = m->info.header.level;
		ev->version = m->info.header.version;
		ev->keyword = m->info.keyword;
	} else {
		ev->kind = m->classic ? EHD_EVENT_TRACEFS :
			   m->raw ? EHD_EVENT_RAW : EHD_EVENT_NETTRACE;
		/* Converted tracepoints had no id: theirs is synthetic. */
		if (ev->kind == EHD_EVENT_NETTRACE)
			ev->id = (uint16_t)m->event_id;
	}
	return 0;
}

/* What TraceEvent assumes of the order of rows (strict mode). */
static int check_order(struct ehd__nt *nt, const struct ehd__nt_row *row)
{
	if (row->sorted) {
		if (row->timestamp < nt->last_sorted)
			return ehd__nt_fail(nt, -EBADMSG, row->offset,
					    "an IsSorted event older than an earlier one");
		nt->last_sorted = row->timestamp;
		nt->cur_capture = row->capture_thread;
		nt->cur_capture_valid = 1;
	} else if (nt->cur_capture_valid &&
		   nt->cur_capture != row->capture_thread) {
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "the capture thread changes on an event not marked IsSorted");
	}
	if (row->timestamp < nt->last_sorted)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "an event older than an earlier IsSorted one");
	if (nt->have_sp_time && row->timestamp < nt->last_sp_time)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "an event older than the sequence point before it");
	if (row->timestamp < nt->sync_ticks)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "an event older than the trace's sync time");
	if (!row->timestamp)
		return ehd__nt_fail(nt, -EBADMSG, row->offset,
				    "an event at tick 0 (TraceEvent takes it for no time)");
	return 0;
}

int ehd__nt_next(struct ehd__nt *nt, const struct ehd_event **ev)
{
	struct ehd__nt_row row;
	int ret;

	*ev = NULL;
	if (nt->err.err)
		return nt->err.err;
	memset(&row, 0, sizeof(row));
	ret = nt->legacy ? ehd__ntl_next(nt, nt->legacy, &row) :
			   v6_next(nt, &row);
	if (ret <= 0)
		return ret < 0 && !nt->err.err ? ehd__nt_fail(nt, ret,
							 ehd__nt_offset(nt),
							 "%s", strerror(-ret)) :
					    ret;
	if (nt->strict && !nt->legacy) {
		ret = check_order(nt, &row);
		if (ret)
			return ret;
	}
	if (row.has_seq) {
		ret = check_seq(nt, row.capture_thread, row.seq, row.offset);
		if (ret)
			return ret;
	}
	if (row.stack) {
		/* v3: an inline stack */
		size_t n = row.stack_size / (nt->pointer_size == 4 ? 4 : 8), i;

		ehd__nt_sequence_point(nt, 0);
		if (ehd__grow(&nt->stack_ips, &nt->ips_cap, n,
			      sizeof(*nt->stack_ips)))
			return ehd__nt_fail(nt, -ENOMEM, row.offset,
					    "out of memory");
		for (i = 0; i < n; i++)
			nt->stack_ips[i] = ehd__load_uint(row.stack + i *
							  (nt->pointer_size == 4 ? 4 : 8),
							  nt->pointer_size == 4 ? 4 : 8, 0);
		ret = make_event(nt, &row);
		if (!ret && n) {
			nt->ev.context |= EHD_CTX_CALLCHAIN;
			nt->ev.callchain = nt->stack_ips;
			nt->ev.callchain_count = n;
		}
	} else {
		ret = make_event(nt, &row);
	}
	if (ret)
		return ret;
	if (row.activity || row.related) {
		/* v4/v5: ids in .NET order, given back in RFC 4122 order */
		if (row.activity) {
			ehd__nt_guid_swap(nt->legacy_ids, row.activity);
			nt->ev.activity_id = nt->legacy_ids;
		}
		if (row.related) {
			ehd__nt_guid_swap(nt->legacy_ids + 16, row.related);
			nt->ev.related_id = nt->legacy_ids + 16;
		}
	}
	*ev = &nt->ev;
	return 1;
}

/* ---- opening ---- */

bool ehd__nt_is_nettrace(const uint8_t *h, size_t n)
{
	return n >= 8 && (!memcmp(h, EHD__NT_MAGIC, 8) ||
			  (!memcmp(h, "\x14\0\0\0!Fas", 8)));
}

int ehd__nt_open(struct ehd__nt **ntp, int fd, const uint8_t *pre,
		 size_t npre, bool strict)
{
	struct ehd__nt *nt = calloc(1, sizeof(*nt));
	const uint8_t *p;
	uint8_t h[12];
	int err;

	*ntp = nt;
	if (!nt)
		return -ENOMEM;
	nt->strict = strict;
	nt->info.clockid = -1;
	if (ehd__in_open(&nt->in, fd, pre, npre, READ_CHUNK))
		return ehd__nt_fail(nt, -ENOMEM, 0, "out of memory");
	err = ehd__nt_read(nt, 8, &p);
	if (err)
		return err;
	memcpy(h, p, 8);
	/* Strict mode is TraceEvent's rules for v6; v3-v5 are read as is. */
	if (memcmp(h, EHD__NT_MAGIC, 8)) {
		nt->strict = false;
		return ehd__ntl_open(nt, &nt->legacy, h, 8);
	}
	err = ehd__nt_read(nt, 4, &p);
	if (err)
		return err;
	memcpy(h + 8, p, 4);
	if (ehd__load_uint(h + 8, 4, 0)) {
		nt->strict = false;
		return ehd__ntl_open(nt, &nt->legacy, h, 12);
	}
	err = ehd__nt_read(nt, 8, &p);
	if (err)
		return err;
	nt->version = (unsigned int)ehd__load_uint(p, 4, 0);
	if (nt->version < 6)
		return ehd__nt_fail(nt, -EBADMSG, 12,
				    "invalid nettrace version header (major %u)",
				    nt->version);
	if (nt->version > EHD__NT_MAJOR)
		return ehd__nt_fail(nt, -ENOTSUP, 12,
				    "nettrace major version %u (this reader knows 3 to 6)",
				    nt->version);
	return 0;
}

void ehd__nt_free(struct ehd__nt *nt)
{
	if (!nt)
		return;
	if (nt->legacy)
		ehd__ntl_free(nt->legacy);
	flush_metadata(nt);
	free(nt->metas);
	ehd__table_free(&nt->meta_ids);
	ehd__table_free(&nt->event_ids);
	free(nt->threads);
	ehd__table_free(&nt->thread_ids);
	free(nt->stacks);
	ehd__table_free(&nt->stack_ids);
	free(nt->stack_ips);
	free(nt->labels);
	ehd__table_free(&nt->label_ids);
	ehd__table_free(&nt->seqs);
	free(nt->seq_vals);
	ehd__buf_free(&nt->kv);
	ehd__buf_free(&nt->scratch);
	ehd__buf_free(&nt->name_scratch);
	ehd__buf_free(&nt->thread_names);
	ehd__in_free(&nt->in);
	free(nt);
}

/* ---- as an input of ehd_reader ---- */

struct nt_read {
	struct ehd__nt *nt;
	bool opened;
	bool strict;
	struct ehd__err *err;	/* the front end's */
	struct ehd__procs *procs;	/* attributes the stacks */
	struct ehd__stack_counts stacks;
	uint64_t records, lost;
};

static bool nt_probe(const uint8_t *head, size_t n)
{
	return ehd__nt_is_nettrace(head, n);
}

/* Take the nettrace reader's error as ours. */
static int nt_read_fail(struct nt_read *n, int err)
{
	uint64_t off = 0;
	const char *why = ehd__nt_error(n->nt, &off);

	return ehd__err_take(n->err, err, why, off);
}

static int nt_read_open(void *state, const struct ehd__input_src *src)
{
	struct nt_read *n = state;
	int err;

	n->err = src->err;
	err = ehd__input_after_head(src);
	if (err)
		return err;
	n->strict = src->flags & EHD_READER_STRICT;
	err = ehd__nt_open(&n->nt, src->fd, src->head, src->nhead, n->strict);
	if (err)
		return n->nt ? nt_read_fail(n, err) :
		       ehd__err_set(n->err, err, 0, "out of memory");
	n->opened = true;
	/* Its Universal.System events attribute its stacks. */
	n->procs = ehd__procs_new();
	if (!n->procs)
		return ehd__err_set(n->err, -ENOMEM, 0, "out of memory");
	ehd__nt_set_procs(n->nt, n->procs);
	return EHD_INPUT_NETTRACE;
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
static void nt_given(struct nt_read *n, const struct ehd_event *ev)
{
	const uint8_t *p = ev->data, *end = p + ev->size;
	bool mapping = ev->name_len == 14 && !memcmp(ev->name, "ProcessMapping", 14);
	bool symbol = ev->name_len == 13 && !memcmp(ev->name, "ProcessSymbol", 13);
	uint64_t v[4];
	const char *name;
	size_t i, k, len;

	if (ev->provider_len != 16 || memcmp(ev->provider, "Universal.System", 16))
		return;
	/* a new process (an exec too): its mappings begin afresh */
	if (ev->name_len == 13 && !memcmp(ev->name, "ProcessCreate", 13) &&
	    (ev->context & EHD_CTX_PID))
		ehd__procs_given_process(n->procs, ev->pid);
	if ((!mapping && !symbol) || !p)
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
		ehd__procs_given_mapping(n->procs, ev->pid, v[0], v[1], v[2],
					 v[3], name, len);
	else
		ehd__procs_given_symbol(n->procs, v[1], v[2], v[3], name, len);
}

/*
 * Whether JSON text @j (@len bytes) gives key @key a value PerfView reads
 * as an unsigned integer (a number, or a string of "0x" and hex digits or
 * of decimal digits): 1; 0 without the key; -1 for another value.
 */
static int json_uint(const char *j, size_t len, const char *key)
{
	size_t k = strlen(key), i, d;
	const char *v = NULL;

	for (i = 0; i + k + 3 <= len && !v; i++)
		if (j[i] == '"' && !memcmp(j + i + 1, key, k) &&
		    j[i + k + 1] == '"' && j[i + k + 2] == ':')
			v = j + i + k + 3;
	if (!v)
		return 0;
	len -= (size_t)(v - j);
	i = 0;
	while (i < len && v[i] == ' ')
		i++;
	if (i < len && v[i] == '"') {
		bool hex = len - i > 3 && v[i + 1] == '0' &&
			   (v[i + 2] == 'x' || v[i + 2] == 'X');

		i += hex ? 3 : 1;
		for (d = 0; i < len && (hex ? isxdigit((unsigned char)v[i]) :
				       isdigit((unsigned char)v[i])); i++)
			d++;
		return d && d <= 16 && i < len && v[i] == '"' ? 1 : -1;
	}
	for (d = 0; i < len && isdigit((unsigned char)v[i]); i++)
		d++;
	return d && d <= 20 ? 1 : -1;
}

/*
 * --strict: the ELF keys of a ProcessMappingMetadata that PerfView's
 * symbol lookup takes, "p_vaddr" and "p_offset", come together and are
 * numbers as it reads them (it would drop the whole metadata otherwise).
 */
static int check_metadata(struct nt_read *n, const struct ehd_event *ev)
{
	const uint8_t *p = ev->data, *end = p + ev->size;
	const char *json;
	size_t k, len;
	uint64_t id;
	int va, off;

	if (!n->strict || !p || ev->name_len != 22 ||
	    memcmp(ev->name, "ProcessMappingMetadata", 22) ||
	    ev->provider_len != 16 || memcmp(ev->provider, "Universal.System", 16))
		return 0;
	k = ehd__nt_get_varuint(p, end, 10, &id);
	if (!k || !short_string(p + k, end, &json, &len))
		return 0;	/* (the payload's own rules are the metadata's) */
	va = json_uint(json, len, "p_vaddr");
	off = json_uint(json, len, "p_offset");
	if (va < 0 || off < 0 || !va != !off) {
		ehd__nt_fail(n->nt, -EBADMSG, ev->source_offset,
			     "ProcessMappingMetadata %llu: p_vaddr and p_offset must come together, as numbers",
			     (unsigned long long)id);
		return nt_read_fail(n, -EBADMSG);
	}
	return 0;
}

static int nt_read_next(void *state, const struct ehd_event **ev)
{
	struct nt_read *n = state;
	int ret = ehd__nt_next(n->nt, ev);

	if (ret < 0)
		return nt_read_fail(n, ret);
	n->records += (uint64_t)ret;
	n->lost = ehd__nt_lost(n->nt);
	if (ret > 0) {
		nt_given(n, *ev);
		ehd__procs_count(n->procs, *ev, &n->stacks);
		if (check_metadata(n, *ev))
			return -EBADMSG;
	}
	return ret;
}

static void nt_read_trace_info(void *state, struct ehd_trace_info *info)
{
	struct nt_read *n = state;

	if (n->opened)
		ehd__nt_trace_info(n->nt, info);
}

static void nt_read_stats(const void *state, struct ehd_reader_stats *stats)
{
	const struct nt_read *n = state;

	stats->records = n->records;
	stats->lost = n->lost;
	if (n->nt) {
		stats->malformed = ehd__nt_malformed(n->nt);
		stats->dangling = ehd__nt_dangling(n->nt);
	}
	stats->stacks = n->stacks.stacks;
	stats->stacks_broken = n->stacks.broken;
	stats->stacks_idle = n->stacks.idle;
}

static void nt_read_free(void *state)
{
	struct nt_read *n = state;

	ehd__nt_free(n->nt);
	ehd__procs_free(n->procs);
}

const struct ehd__input_ops ehd__nettrace_input = {
	.name = "nettrace", .what = "nettrace",
	.kinds = 1u << EHD_INPUT_NETTRACE, .state_size = sizeof(struct nt_read),
	.probe = nt_probe, .open = nt_read_open, .next = nt_read_next,
	.trace_info = nt_read_trace_info, .stats = nt_read_stats,
	.free = nt_read_free,
};
