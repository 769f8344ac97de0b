// SPDX-License-Identifier: MIT
/*
 * nettrace-map.c - event types mapped to nettrace field descriptions and
 * payload programs (the rules and reasons: docs/nettrace-mapping.md)
 *
 * Where the EventHeader wire form and nettrace's agree (little-endian
 * integers, uint16_t-counted arrays, concatenated structs) bytes are
 * copied; text is re-encoded as UTF-16 because TraceEvent shows UTF-8 code
 * units as Latin-1; UUIDs change byte order (RFC 4122 to .NET's Guid).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include <eventheader/eventheader.h>
#include <ehdecode/enumerator.h>

#include "core/ehd-bytes.h"
#include "model/json-values.h"
#include "formats/nettrace/nettrace-format.h"
#include "formats/nettrace/nettrace-map.h"
#include "formats/nettrace/nettrace-steps.h"
#include "model/tracefs-fields.h"

/* TraceEvent refuses fixed arrays of this many bytes or more. */
#define FIXED_ARRAY_MAX 0xffebu

enum op_code {
	OP_COPY,	/* @n elements of @size bytes */
	OP_COUNTED,	/* uint16_t count, then count elements of @size bytes */
	OP_UUID,	/* 16 bytes, RFC 4122 order to .NET Guid order */
	OP_ZSTR,	/* units of @size bytes up to a zero unit, as @conv */
	OP_LSTR,	/* uint16_t count, then units of @size bytes, as @conv */
	OP_LOOP,	/* the body (up to @end) @n times, or a counted array */
	OP_LOC,		/* a __data_loc (or __rel_loc with @counted) word */
};

enum conv {
	CV_UTF16Z,	/* to NUL-terminated UTF-16 */
	CV_UTF16A,	/* to uint16_t-counted UTF-16 units */
	CV_ARRAY,	/* to uint16_t-counted units, as they are */
};

struct ehd__ntm_op {
	uint8_t code;
	uint8_t conv;
	uint8_t size;		/* element or unit size */
	bool latin1;		/* 8-bit text is Latin-1, not UTF-8 */
	bool counted;		/* OP_LOOP: a uint16_t count in the source */
	bool put_count;		/* OP_LOOP: write @n as a uint16_t first */
	uint32_t n;
	uint32_t end;		/* OP_LOOP: index after the body */
};

static struct ehd__ntm_op *add_op(struct ehd__ntm *m, uint8_t code,
				  uint8_t size, uint32_t n)
{
	struct ehd__ntm_op *op;

	if (m->nops == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;

		op = realloc(m->ops, cap * sizeof(*op));
		if (!op) {
			m->err = -ENOMEM;
			return NULL;
		}
		m->ops = op;
		m->cap = cap;
	}
	/* Consecutive copies merge (into bytes when values need no swap). */
	if (code == OP_COPY && m->nops > m->barrier &&
	    m->ops[m->nops - 1].code == OP_COPY) {
		op = &m->ops[m->nops - 1];
		if (op->size == size) {
			op->n += n;
			return op;
		}
		if (!m->swap) {
			op->n = op->n * op->size + n * size;
			op->size = 1;
			return op;
		}
	}
	op = &m->ops[m->nops++];
	memset(op, 0, sizeof(*op));
	op->code = code;
	op->size = size;
	op->n = n;
	return op;
}

/* ---- field descriptions ---- */

/* Start a field description; returns where its size goes. */
static size_t field_begin(struct ehd__ntm *m, const char *name, size_t len)
{
	size_t at = m->fields.len;

	ehd__nt_put_le(&m->fields, 0, 2);
	m->utf8_replaced += ehd__nt_put_string(&m->fields, name, len);
	return at;
}

static void field_end(struct ehd__ntm *m, size_t at)
{
	ehd__nt_patch_le(&m->fields, at, m->fields.len - at - 2, 2);
}

static void put_code(struct ehd__ntm *m, uint8_t code)
{
	ehd__buf_putc(&m->fields, (char)code);
}

static void hint(struct ehd__ntm *m, uint8_t enc, uint8_t fmt, uint16_t tag,
		 const char *suffix)
{
	if (m->hints.len)
		ehd__buf_putc(&m->hints, ',');
	if (tag)
		ehd__buf_printf(&m->hints, "%x.%x.%x%s", enc, fmt, tag, suffix);
	else
		ehd__buf_printf(&m->hints, "%x.%x%s", enc, fmt, suffix);
}

/* ---- EventHeader ---- */

struct decl {
	const char *name;
	size_t name_len;
	uint8_t encoding, format, array_flags;
	uint16_t tag, count;
};

static int read_decl(const uint8_t *p, const uint8_t *end, size_t *used,
		     struct decl *d, bool swap)
{
	const uint8_t *q = p, *nul = memchr(p, 0, (size_t)(end - p));
	uint8_t enc, fmt = 0;

	if (!nul || nul + 1 >= end)
		return -EBADMSG;
	d->name = (const char *)p;
	d->name_len = (size_t)(nul - p);
	q = nul + 1;
	enc = *q++;
	if (enc & EH_ENC_CHAIN_FLAG) {
		if (q >= end)
			return -EBADMSG;
		fmt = *q++;
	}
	d->tag = 0;
	if (fmt & EH_FMT_CHAIN_FLAG) {
		if (end - q < 2)
			return -EBADMSG;
		d->tag = (uint16_t)ehd__load_uint(q, 2, swap != ehd__host_big());
		q += 2;
	}
	d->encoding = enc & EH_ENC_VALUE_MASK;
	d->format = fmt & EH_FMT_VALUE_MASK;
	d->array_flags = enc & (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG);
	d->count = 0;
	if (d->array_flags == (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG))
		return -ENOTSUP;
	if (d->array_flags == EH_ENC_CARRAY_FLAG) {
		if (end - q < 2)
			return -EBADMSG;
		d->count = (uint16_t)ehd__load_uint(q, 2,
						    swap != ehd__host_big());
		q += 2;
		if (!d->count)
			return -EBADMSG;
	}
	if (d->encoding == EH_ENC_INVALID || d->encoding >= EH_ENC_MAX)
		return -ENOTSUP;
	if (d->encoding == EH_ENC_STRUCT && !d->format)
		return -EBADMSG;
	*used = (size_t)(q - p);
	return 0;
}

static bool is_text(uint8_t fmt)
{
	return fmt == EH_FMT_DEFAULT || fmt == EH_FMT_STRING8 ||
	       fmt == EH_FMT_STRING_UTF;
}

/* The type of a value of encoding @enc, format @fmt; 0 if not a value. */
static uint8_t value_code(uint8_t enc, uint8_t fmt)
{
	switch (enc) {
	case EH_ENC_VALUE8:
		return fmt == EH_FMT_SIGNED_INT ? EHD__NT_SBYTE :
		       fmt == EH_FMT_BOOLEAN ? EHD__NT_BOOLEAN8 :
		       fmt == EH_FMT_STRING8 || fmt == EH_FMT_STRING_UTF ?
		       EHD__NT_UTF8_UNIT : EHD__NT_BYTE;
	case EH_ENC_VALUE16:
		return fmt == EH_FMT_SIGNED_INT ? EHD__NT_INT16 :
		       fmt == EH_FMT_STRING_UTF ? EHD__NT_UTF16_UNIT :
		       EHD__NT_UINT16;
	case EH_ENC_VALUE32:
		return fmt == EH_FMT_SIGNED_INT || fmt == EH_FMT_ERRNO ||
		       fmt == EH_FMT_TIME ? EHD__NT_INT32 :
		       fmt == EH_FMT_FLOAT ? EHD__NT_SINGLE :
		       fmt == EH_FMT_BOOLEAN ? EHD__NT_BOOLEAN32 :
		       EHD__NT_UINT32;
	case EH_ENC_VALUE64:
		return fmt == EH_FMT_SIGNED_INT || fmt == EH_FMT_TIME ?
		       EHD__NT_INT64 : fmt == EH_FMT_FLOAT ? EHD__NT_DOUBLE :
		       EHD__NT_UINT64;
	default:
		return 0;
	}
}

static int map_fields(struct ehd__ntm *m, const uint8_t **p,
		      const uint8_t *end, unsigned int count, int depth);

/*
 * Write the type of one element of @d (no array flags) and the steps that
 * convert it. A struct's members follow at *@p.
 */
static int map_element(struct ehd__ntm *m, const struct decl *d,
		       const uint8_t **p, const uint8_t *end, int depth)
{
	uint8_t enc = d->encoding, fmt = d->format, unit = 1;
	struct ehd__ntm_op *op;
	bool text = is_text(fmt);
	uint8_t code = value_code(enc, fmt);

	if (code) {
		put_code(m, code);
		add_op(m, OP_COPY, (uint8_t)(1u << (enc - EH_ENC_VALUE8)), 1);
		return m->err;
	}
	switch (enc) {
	case EH_ENC_STRUCT:
		put_code(m, EHD__NT_OBJECT);
		ehd__nt_put_le(&m->fields, d->format, 2);
		return map_fields(m, p, end, d->format, depth + 1);
	case EH_ENC_VALUE128:
		if (fmt == EH_FMT_UUID) {
			put_code(m, EHD__NT_GUID);
			add_op(m, OP_UUID, 16, 1);
		} else {
			put_code(m, EHD__NT_FIXED_ARRAY);
			put_code(m, EHD__NT_BYTE);
			ehd__nt_put_le(&m->fields, 16, 2);
			add_op(m, OP_COPY, 1, 16);
		}
		return m->err;
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		unit = 4;
		break;
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR16:
		unit = 2;
		break;
	default:
		break;
	}
	if (enc == EH_ENC_BINARY_LENGTH16_CHAR8)
		text = false;
	/* Text: UTF-16; other strings: counted arrays of their units. */
	if (enc <= EH_ENC_ZSTRING_CHAR32 && text) {
		put_code(m, EHD__NT_UTF16Z);
		op = add_op(m, OP_ZSTR, unit, 1);
		if (op)
			op->conv = CV_UTF16Z;
	} else {
		put_code(m, EHD__NT_ARRAY);
		put_code(m, text || unit == 2 ? EHD__NT_UTF16_UNIT :
			 unit == 4 ? EHD__NT_UINT32 :
			 fmt == EH_FMT_HEX_BYTES || !fmt ||
			 enc == EH_ENC_BINARY_LENGTH16_CHAR8 ?
			 EHD__NT_BYTE : EHD__NT_UTF8_UNIT);
		op = add_op(m, enc <= EH_ENC_ZSTRING_CHAR32 ? OP_ZSTR : OP_LSTR,
			    unit, 1);
		if (op)
			op->conv = text && unit != 2 ? CV_UTF16A : CV_ARRAY;
	}
	if (op)
		op->latin1 = fmt == EH_FMT_STRING8 && unit == 1;
	return m->err;
}

/* Fixed size of the elements the steps from @first on convert, or 0. */
static uint8_t plain_size(const struct ehd__ntm *m, size_t first)
{
	if (m->nops != first + 1 || m->ops[first].code != OP_COPY ||
	    m->ops[first].n != 1)
		return 0;
	return m->ops[first].size;
}

static int map_field(struct ehd__ntm *m, const struct decl *d,
		     const uint8_t **p, const uint8_t *end, int depth)
{
	size_t at = field_begin(m, d->name, d->name_len), first, code_at;
	struct ehd__ntm_op *loop;
	uint8_t elem;
	uint32_t loop_at;
	bool fixed_array;
	int err;

	hint(m, d->encoding | d->array_flags, d->format, d->tag, "");
	if (!d->array_flags) {
		err = map_element(m, d, p, end, depth);
		field_end(m, at);
		return err;
	}
	/* Arrays: the element type follows the array type code. */
	fixed_array = d->array_flags == EH_ENC_CARRAY_FLAG;
	code_at = m->fields.len;
	put_code(m, fixed_array ? EHD__NT_FIXED_ARRAY : EHD__NT_ARRAY);
	loop_at = (uint32_t)m->nops;
	if (!add_op(m, OP_LOOP, 0, d->count))
		return m->err;
	m->barrier = m->nops;
	first = m->nops;
	err = map_element(m, d, p, end, depth);
	if (err)
		return err;
	loop = &m->ops[loop_at];
	loop->counted = !fixed_array;
	loop->end = (uint32_t)m->nops;
	m->barrier = m->nops;
	elem = plain_size(m, first);
	if (fixed_array && elem && (size_t)d->count * elem >= FIXED_ARRAY_MAX) {
		/* Too large for TraceEvent's fixed arrays: counted. */
		m->fields.p[code_at] = EHD__NT_ARRAY;
		loop->put_count = true;
	} else if (fixed_array) {
		ehd__nt_put_le(&m->fields, d->count, 2);
	}
	/* An array of plain values is one step. */
	if (elem && !loop->put_count) {
		m->nops = m->barrier = loop_at;
		add_op(m, fixed_array ? OP_COPY : OP_COUNTED, elem,
		       fixed_array ? d->count : 1);
	}
	field_end(m, at);
	return m->err;
}

static int map_fields(struct ehd__ntm *m, const uint8_t **p,
		      const uint8_t *end, unsigned int count, int depth)
{
	size_t count_at = m->fields.len - 2, n = 0;
	struct decl d;
	size_t used;
	int err;

	if (depth > EHD_STRUCT_DEPTH_MAX)
		return -EOVERFLOW;
	while (count-- && *p < end) {
		err = read_decl(*p, end, &used, &d, m->swap);
		if (err)
			return err;
		*p += used;
		err = map_field(m, &d, p, end, depth);
		if (err)
			return err;
		n++;
	}
	ehd__nt_patch_le(&m->fields, count_at, n, 2);
	return m->err;
}

static void reset(struct ehd__ntm *m, bool swap)
{
	ehd__buf_reset(&m->fields);
	ehd__buf_reset(&m->hints);
	m->nops = m->barrier = 0;
	m->swap = swap;
	m->tail = false;
	m->fixed_size = 0;
	m->nsteps = 0;
	m->err = 0;
}

/*
 * A program of one plain copy: every payload has the same size. Another
 * program of copies and 8-bit zero-terminated strings in the host's byte
 * order is said as steps, each copy followed by a string, and run by
 * ehd__ntm_run_steps() (none when there is no memory for them: run_ops()
 * runs it).
 */
static void find_fixed_size(struct ehd__ntm *m)
{
	struct ehd__ntm_step *st;
	bool simple;
	size_t i;

	m->fixed_size = 0;
	if (m->nops == 1 && m->ops[0].code == OP_COPY &&
	    (m->ops[0].size == 1 || !m->swap))
		m->fixed_size = (size_t)m->ops[0].n * m->ops[0].size;
	m->nsteps = 0;
	simple = !m->fixed_size && !m->swap && !m->tail && m->nops;
	for (i = 0; i < m->nops && simple; i++)
		simple = m->ops[i].code == OP_COPY ||
			 (m->ops[i].code == OP_ZSTR && m->ops[i].size == 1 &&
			  m->ops[i].conv == CV_UTF16Z);
	if (!simple || ehd__grow(&m->steps, &m->steps_cap, m->nops + 1,
				 sizeof(*m->steps)))
		return;
	st = m->steps;
	st->copy = 0;
	for (i = 0; i < m->nops; i++) {
		if (m->ops[i].code == OP_COPY) {
			st->copy += (size_t)m->ops[i].n * m->ops[i].size;
			continue;
		}
		st->str = m->ops[i].latin1 ? EHD__STEP_LATIN1 : EHD__STEP_UTF8;
		(++st)->copy = 0;
	}
	st->str = EHD__STEP_END;
	m->nsteps = (size_t)(st - m->steps) + 1;
}

int ehd__ntm_eventheader(struct ehd__ntm *m, const uint8_t *decls, size_t len,
			 bool swap)
{
	const uint8_t *p = decls;
	int err;

	reset(m, swap);
	ehd__nt_put_le(&m->fields, 0, 2);
	err = map_fields(m, &p, decls + len, EHD_TOP_FIELDS_MAX, 0);
	if (!err && p < decls + len)
		err = -ENOTSUP;	/* more top-level fields than allowed */
	if (!err)
		err = m->fields.err ? m->fields.err : m->hints.err;
	find_fixed_size(m);
	return err;
}

/* ---- classic tracepoints ---- */

static void pad(struct ehd__ntm *m, unsigned int at, unsigned int n)
{
	char name[32];
	size_t f;
	int len = snprintf(name, sizeof(name), "__pad_%u", at);

	f = field_begin(m, name, (size_t)len);
	put_code(m, EHD__NT_FIXED_ARRAY);
	put_code(m, EHD__NT_BYTE);
	ehd__nt_put_le(&m->fields, (uint16_t)n, 2);
	field_end(m, f);
	hint(m, EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_HEX_BYTES, 0, ":p");
	add_op(m, OP_COPY, 1, n);
}

/* Integer type of @size bytes, signed or not. */
static uint8_t int_code(unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? EHD__NT_SBYTE : EHD__NT_BYTE;
	case 2:
		return is_signed ? EHD__NT_INT16 : EHD__NT_UINT16;
	case 4:
		return is_signed ? EHD__NT_INT32 : EHD__NT_UINT32;
	case 8:
		return is_signed ? EHD__NT_INT64 : EHD__NT_UINT64;
	default:
		return 0;
	}
}

static void map_classic(struct ehd__ntm *m, const struct tep_format_field *f,
			uint8_t fmt, unsigned int elem, const char *suffix)
{
	bool dyn = f->flags & TEP_FIELD_IS_DYNAMIC;
	bool array = f->flags & TEP_FIELD_IS_ARRAY;
	unsigned int size = (unsigned int)f->size;
	struct ehd__ntm_op *op;
	uint8_t code;
	size_t at;

	if (!elem && f->arraylen)
		elem = size / f->arraylen;
	code = fmt == EH_FMT_STRING8 ? EHD__NT_UTF8_UNIT :
	       fmt == EH_FMT_HEX_BYTES ? EHD__NT_BYTE :
	       int_code(elem ? elem : size, fmt == EH_FMT_SIGNED_INT);
	at = field_begin(m, f->name, strlen(f->name));
	if (dyn && size == 4) {
		if (!code || (elem == 1 && fmt == EH_FMT_HEX_INT))
			code = EHD__NT_BYTE;
		put_code(m, (f->flags & TEP_FIELD_IS_RELATIVE) ?
			 EHD__NT_RELLOC : EHD__NT_DATALOC);
		put_code(m, code);
		if (code == EHD__NT_UTF8_UNIT)
			hint(m, EH_ENC_STRING_LENGTH16_CHAR8, fmt, 0, suffix);
		else if (code == EHD__NT_BYTE && fmt != EH_FMT_UNSIGNED_INT &&
			 fmt != EH_FMT_SIGNED_INT)
			hint(m, EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_HEX_BYTES,
			     0, suffix);
		else
			hint(m, (uint8_t)(eh_value_encoding(elem ? elem : 1) |
					  EH_ENC_VARRAY_FLAG), fmt, 0, suffix);
		op = add_op(m, OP_LOC, 4, 1);
		if (op)
			op->counted = f->flags & TEP_FIELD_IS_RELATIVE;
		m->tail = true;
	} else if (!array && code && fmt != EH_FMT_HEX_BYTES &&
		   fmt != EH_FMT_STRING8) {
		put_code(m, code);
		hint(m, eh_value_encoding(size), fmt, 0, suffix);
		add_op(m, OP_COPY, (uint8_t)size, 1);
	} else if (array && code && elem > 1 && size % elem == 0 &&
		   fmt != EH_FMT_HEX_BYTES) {
		put_code(m, EHD__NT_FIXED_ARRAY);
		put_code(m, code);
		ehd__nt_put_le(&m->fields, (uint16_t)(size / elem), 2);
		hint(m, (uint8_t)(eh_value_encoding(elem) | EH_ENC_CARRAY_FLAG),
		     fmt, 0, suffix);
		add_op(m, OP_COPY, (uint8_t)elem, size / elem);
	} else {
		/* Text, bytes, and anything else: a fixed array of bytes. */
		put_code(m, EHD__NT_FIXED_ARRAY);
		put_code(m, fmt == EH_FMT_STRING8 ? EHD__NT_UTF8_UNIT :
			 EHD__NT_BYTE);
		ehd__nt_put_le(&m->fields, (uint16_t)size, 2);
		if (fmt == EH_FMT_STRING8)
			hint(m, EH_ENC_STRING_LENGTH16_CHAR8, fmt, 0, suffix);
		else
			hint(m, EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_HEX_BYTES,
			     0, suffix);
		add_op(m, OP_COPY, 1, size);
	}
	field_end(m, at);
}

int ehd__ntm_tracefs(struct ehd__ntm *m, const struct tep_event *event,
		     const struct ehd__tracefs_types *types, bool swap)
{
	const struct tep_format_field *lists[2] = {
		event->format.common_fields, event->format.fields
	};
	const struct tep_format_field *f;
	unsigned int cur = 0, elem, n = 0;
	size_t i = 0, l;
	uint8_t fmt;

	reset(m, swap);
	ehd__nt_put_le(&m->fields, 0, 2);
	for (l = 0; l < 2; l++) {
		for (f = lists[l]; f; f = f->next, i++) {
			ehd__tracefs_field_type(types, i, &fmt, &elem);
			if (f->size <= 0 || f->size >= (int)FIXED_ARRAY_MAX)
				continue;	/* "the rest of the record" */
			if ((unsigned int)f->offset < cur)
				return -ENOTSUP;
			if ((unsigned int)f->offset > cur) {
				pad(m, cur, (unsigned int)f->offset - cur);
				n++;
			}
			map_classic(m, f, fmt, elem, l ? "" : ":c");
			cur = (unsigned int)(f->offset + f->size);
			n++;
		}
	}
	ehd__nt_patch_le(&m->fields, 0, n, 2);
	find_fixed_size(m);
	if (m->fields.err || m->hints.err)
		return -ENOMEM;
	return m->err;
}

int ehd__ntm_raw(struct ehd__ntm *m)
{
	size_t at;

	reset(m, false);
	ehd__nt_put_le(&m->fields, 1, 2);
	at = field_begin(m, "raw", 3);
	put_code(m, EHD__NT_ARRAY);
	put_code(m, EHD__NT_BYTE);
	field_end(m, at);
	hint(m, EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_HEX_BYTES, 0, "");
	/* Written by ehd__ntm_convert() as one counted run of bytes. */
	add_op(m, OP_LSTR, 1, 1);
	m->ops[0].conv = CV_ARRAY;
	m->ops[0].counted = true;	/* marks "the whole source" */
	return m->fields.err ? m->fields.err : m->hints.err ? m->hints.err :
								m->err;
}

int ehd__ntm_universal(struct ehd__ntm *m, const char *spec,
		       const char *const *names)
{
	size_t i, at;

	reset(m, false);
	ehd__nt_put_le(&m->fields, strlen(spec), 2);
	for (i = 0; spec[i]; i++) {
		at = field_begin(m, names[i], strlen(names[i]));
		if (spec[i] == 's') {
			put_code(m, EHD__NT_ARRAY);
			put_code(m, EHD__NT_UTF8_UNIT);
			hint(m, EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING_UTF,
			     0, "");
		} else {
			put_code(m, EHD__NT_VARUINT);
			hint(m, EH_ENC_VALUE64, spec[i] == 'x' ? EH_FMT_HEX_INT :
				 EH_FMT_UNSIGNED_INT, 0, "");
		}
		field_end(m, at);
	}
	return m->fields.err ? m->fields.err : m->hints.err;
}

void ehd__ntm_fini(struct ehd__ntm *m)
{
	ehd__buf_free(&m->fields);
	ehd__buf_free(&m->hints);
	free(m->ops);
	free(m->steps);
	memset(m, 0, sizeof(*m));
}

/* ---- converting payloads ---- */

struct run {
	const struct ehd__ntm *m;
	const uint8_t *src;
	size_t size, pos;
	struct ehd_buf *out;
	struct ehd__ntm_result *res;
};

static int bad(struct run *r, const char *why)
{
	r->res->where = r->pos;
	r->res->why = why;
	return -EBADMSG;
}

static void put_swapped(struct ehd_buf *b, const uint8_t *p, size_t n,
			unsigned int size)
{
	size_t i;
	unsigned int k;
	uint8_t v[16];

	for (i = 0; i < n; i++, p += size) {
		for (k = 0; k < size; k++)
			v[k] = p[size - 1 - k];
		ehd__buf_put(b, v, size);
	}
}

static void put_units(struct run *r, const uint8_t *p, size_t n,
		      unsigned int size)
{
	struct ehd_buf *b = r->out;
	size_t bytes = n * size;

	if (r->m->swap && size > 1) {
		put_swapped(b, p, n, size);
	} else if (b->len + bytes < b->cap && !b->err) {
		/* The common case, without a call to grow the buffer. */
		memcpy(b->p + b->len, p, bytes);
		b->len += bytes;
	} else {
		ehd__buf_put(b, p, bytes);
	}
}

static uint32_t load(const struct run *r, const uint8_t *p, unsigned int size)
{
	return (uint32_t)ehd__load_uint(p, size, r->m->swap != ehd__host_big());
}

/* Store code point @c as UTF-16 at @d; returns units written. */
static size_t put_cp16(struct run *r, uint8_t *d, uint32_t c)
{
	if (c > 0x10ffff) {
		r->res->lossy++;
		c = 0xfffd;
	}
	if (c < 0x10000) {
		d[0] = (uint8_t)c;
		d[1] = (uint8_t)(c >> 8);
		return 1;
	}
	c -= 0x10000;
	d[0] = (uint8_t)(0xd800 + (c >> 10));
	d[1] = (uint8_t)((0xd800 + (c >> 10)) >> 8);
	d[2] = (uint8_t)(0xdc00 + (c & 0x3ff));
	d[3] = (uint8_t)((0xdc00 + (c & 0x3ff)) >> 8);
	return 2;
}

/*
 * @n units of @size bytes at @p as UTF-16; returns the units written.
 * Room for the most it can write is taken at once (a unit of 1 or 4
 * bytes gives at most 2 UTF-16 units); runs of ASCII are widened in a
 * tight loop, the common case.
 */
static size_t to_utf16(struct run *r, const uint8_t *p, size_t n,
		       unsigned int size, bool latin1)
{
	size_t i = 0, k, w = 0;
	uint8_t *d;
	uint32_t c;

	if (ehd__buf_reserve(r->out, 4 * n))
		return 0;
	d = (uint8_t *)r->out->p + r->out->len;
	while (i < n) {
		if (size == 1) {
			if (p[i] < 0x80 || latin1) {
				d[2 * w] = p[i++];
				d[2 * w++ + 1] = 0;
				continue;
			}
			k = ehd__utf8_valid_len(p + i, n - i);
			if (k <= 1) {
				c = p[i++];	/* Latin-1 */
			} else {
				c = k == 2 ? (uint32_t)(p[i] & 0x1f) << 6 |
					     (p[i + 1] & 0x3f) :
				    k == 3 ? (uint32_t)(p[i] & 0x0f) << 12 |
					     (uint32_t)(p[i + 1] & 0x3f) << 6 |
					     (p[i + 2] & 0x3f) :
				    (uint32_t)(p[i] & 0x07) << 18 |
				    (uint32_t)(p[i + 1] & 0x3f) << 12 |
				    (uint32_t)(p[i + 2] & 0x3f) << 6 |
				    (p[i + 3] & 0x3f);
				i += k;
			}
		} else {
			c = load(r, p + 4 * i, 4);
			i++;
		}
		w += put_cp16(r, d + 2 * w, c);
	}
	r->out->len += 2 * w;
	return w;
}

/* Find the zero unit ending a string at r->pos; its unit count. */
static int zstring(struct run *r, unsigned int size, size_t *units)
{
	const uint8_t *p = r->src + r->pos, *z;
	size_t left = r->size - r->pos, n;
	unsigned int i;

	if (size == 1) {
		z = memchr(p, 0, left);
		if (!z)
			return bad(r, "string not terminated");
		*units = (size_t)(z - p);
		return 0;
	}
	for (n = 0; n + size <= left; n += size) {
		for (i = 0; i < size && !p[n + i]; i++)
			;
		if (i == size) {
			*units = n / size;
			return 0;
		}
	}
	return bad(r, "string not terminated");
}

static int string_op(struct run *r, const struct ehd__ntm_op *op)
{
	const uint8_t *p;
	size_t units, at, w;
	unsigned int size = op->size;
	int err;

	if (op->code == OP_ZSTR) {
		err = zstring(r, size, &units);
		if (err)
			return err;
		p = r->src + r->pos;
		r->pos += (units + 1) * size;
	} else {
		if (r->size - r->pos < 2)
			return bad(r, "string length past the end");
		units = load(r, r->src + r->pos, 2);
		if ((r->size - r->pos - 2) / size < units)
			return bad(r, "string past the end");
		p = r->src + r->pos + 2;
		r->pos += 2 + units * size;
	}
	switch (op->conv) {
	case CV_UTF16Z:
		if (size == 2)
			put_units(r, p, units, 2);
		else
			to_utf16(r, p, units, size, op->latin1);
		if (r->out->len + 2 < r->out->cap && !r->out->err) {
			r->out->p[r->out->len++] = 0;
			r->out->p[r->out->len++] = 0;
		} else {
			ehd__nt_put_le(r->out, 0, 2);
		}
		return 0;
	case CV_UTF16A:
		at = r->out->len;
		ehd__nt_put_le(r->out, 0, 2);
		w = to_utf16(r, p, units, size, op->latin1);
		if (w > UINT16_MAX)
			return bad(r, "string longer than 65,535 UTF-16 units");
		ehd__nt_patch_le(r->out, at, w, 2);
		return 0;
	default:
		ehd__nt_put_le(r->out, (uint16_t)units, 2);
		put_units(r, p, units, size);
		return 0;
	}
}

/* A classic dynamic field: its data must lie in the record. */
static int loc_op(struct run *r, const struct ehd__ntm_op *op)
{
	uint32_t loc;
	size_t off;

	if (r->size - r->pos < 4)
		return bad(r, "value past the end");
	loc = load(r, r->src + r->pos, 4);
	off = (loc & 0xffff) + (op->counted ? r->pos + 4 : 0);
	if (off > r->size || (loc >> 16) > r->size - off)
		return bad(r, "dynamic field data outside the record");
	put_units(r, r->src + r->pos, 1, 4);
	r->pos += 4;
	return 0;
}

static int run_ops(struct run *r, size_t i, size_t end)
{
	const struct ehd__ntm_op *op;
	uint8_t g[16];
	size_t n, k, bytes;
	int err;

	for (; i < end; i++) {
		op = &r->m->ops[i];
		switch (op->code) {
		case OP_COPY:
			bytes = (size_t)op->n * op->size;
			if (r->size - r->pos < bytes)
				return bad(r, "value past the end");
			put_units(r, r->src + r->pos, op->n, op->size);
			r->pos += bytes;
			break;
		case OP_COUNTED:
			if (r->size - r->pos < 2)
				return bad(r, "array count past the end");
			n = load(r, r->src + r->pos, 2);
			if ((r->size - r->pos - 2) / op->size < n)
				return bad(r, "array past the end");
			ehd__nt_put_le(r->out, (uint16_t)n, 2);
			put_units(r, r->src + r->pos + 2, n, op->size);
			r->pos += 2 + n * op->size;
			break;
		case OP_UUID:
			if (r->size - r->pos < 16)
				return bad(r, "value past the end");
			ehd__nt_guid_swap(g, r->src + r->pos);
			ehd__buf_put(r->out, g, 16);
			r->pos += 16;
			break;
		case OP_ZSTR:
		case OP_LSTR:
			err = string_op(r, op);
			if (err)
				return err;
			break;
		case OP_LOC:
			err = loc_op(r, op);
			if (err)
				return err;
			break;
		case OP_LOOP:
			n = op->n;
			if (op->counted) {
				if (r->size - r->pos < 2)
					return bad(r, "array count past the end");
				n = load(r, r->src + r->pos, 2);
				r->pos += 2;
			}
			if (op->counted || op->put_count)
				ehd__nt_put_le(r->out, (uint16_t)n, 2);
			for (k = 0; k < n; k++) {
				err = run_ops(r, i + 1, op->end);
				if (err)
					return err;
			}
			i = op->end - 1;
			break;
		}
	}
	return 0;
}

void ehd__ntm_utf16(const struct ehd__ntm *m, const uint8_t *p, size_t n,
		    bool latin1, struct ehd_buf *out,
		    struct ehd__ntm_result *res)
{
	struct run r = { m, p, n, 0, out, res };

	to_utf16(&r, p, n, 1, latin1);
}

int ehd__ntm_convert_ops(const struct ehd__ntm *m, const uint8_t *src,
			 size_t size, struct ehd_buf *out,
			 struct ehd__ntm_result *res)
{
	struct run r = { m, src, size, 0, out, res };
	size_t start = out->len;
	int err;

	res->lossy = 0;
	res->why = NULL;
	res->extra = false;
	if (m->fixed_size) {
		if (size < m->fixed_size) {
			r.pos = size;
			return bad(&r, "payload shorter than its fields");
		}
		ehd__buf_put(out, src, m->fixed_size);
		res->extra = ehd__extra_bytes(size - m->fixed_size);
		return out->err;
	}
	if (m->nops == 1 && m->ops[0].code == OP_LSTR && m->ops[0].counted) {
		/* raw: all the bytes */
		if (size > EHD__NT_PAYLOAD_MAX - 2)
			return -E2BIG;
		ehd__nt_put_le(out, (uint16_t)size, 2);
		ehd__buf_put(out, src, size);
		return out->err;
	}
	err = run_ops(&r, 0, m->nops);
	if (!err && m->tail)
		ehd__buf_put(out, src + r.pos, size - r.pos);
	else if (!err)
		res->extra = ehd__extra_bytes(size - r.pos);
	if (!out->err && out->len)
		out->p[out->len] = 0;	/* the buffer's promise (ehd-buf.h) */
	if (!err && out->len - start > EHD__NT_PAYLOAD_MAX)
		err = -E2BIG;
	if (!err)
		err = out->err;
	if (err)
		out->len = start;
	return err;
}

int ehd__ntm_convert(const struct ehd__ntm *m, const uint8_t *src,
		     size_t size, struct ehd_buf *out,
		     struct ehd__ntm_result *res)
{
	return ehd__ntm_convert_inline(m, src, size, out, res);
}
