/* SPDX-License-Identifier: MIT */
/*
 * eh-dynamic.h - EventHeader events defined at run time, header-only
 *
 * For language bindings, configuration-driven events and anything else
 * whose provider, event names, fields, levels or keywords are only known
 * when the program runs. eh-provider.h is the better choice when they are
 * known at compile time: it needs no heap and no metadata building.
 *
 * Quick start:
 *
 *	#include <eventheader/eh-dynamic.h>
 *
 *	struct eh_dyn_provider prov;
 *	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
 *	struct eh_dyn_set *set;
 *	int32_t pid = getpid();
 *
 *	eh_dyn_provider_open(&prov, "MyCompany_MyComponent", NULL);
 *	set = eh_dyn_provider_register_set(&prov, EH_LEVEL_INFO, 0x1);
 *
 *	if (eh_dyn_set_enabled(set)) {         // nobody listening: skip it
 *		eh_dyn_builder_reset(&b, "Started", 0);
 *		eh_dyn_builder_add_value(&b, "pid", &pid, sizeof(pid),
 *					 EH_FMT_SIGNED_INT, 0);
 *		eh_dyn_builder_add_zstring8(&b, "name", "demo", 0, 0);
 *		eh_dyn_builder_write(&b, set, NULL, NULL);
 *	}
 *
 *	eh_dyn_builder_destroy(&b);
 *	eh_dyn_provider_close(&prov);          // before exit or dlclose
 *
 * The event goes to the user_events tracepoint "MyCompany_MyComponent_L4K1".
 *
 * Objects:
 *  - struct eh_dyn_provider: a provider opened by name (and optional group)
 *    at run time. It owns its event sets.
 *  - struct eh_dyn_set: the tracepoint of one (level, keyword) pair of a
 *    provider, "<provider>_L<level>K<keyword>[G<group>]". All events of that
 *    level and keyword are written through it, whatever their names and
 *    fields.
 *  - struct eh_dyn_builder: a reusable event under construction: header
 *    fields, metadata (event name and field declarations) and payload, in
 *    two heap buffers that grow as needed and are kept across
 *    eh_dyn_builder_reset(), so a reused builder does not allocate.
 *
 * Return conventions (as in the rest of the producer): 0 or a positive errno.
 *  - eh_dyn_provider_open(): EINVAL for a bad name or group, ENOMEM, or why
 *    user_events cannot be used (the provider then works, but its sets are
 *    never enabled and every write returns EBADF).
 *  - Builder calls that add to the event record the first error in the
 *    builder (EINVAL for a bad argument, ENOMEM when a buffer cannot grow)
 *    and return it; once an error is recorded they do nothing until the
 *    next eh_dyn_builder_reset(). eh_dyn_builder_write() returns it, so
 *    checking only the write's result is enough.
 *  - eh_dyn_builder_write(): the recorded error, ERANGE when metadata and
 *    payload together exceed EH_DYN_META_DATA_MAX, EBADF when the set is
 *    not enabled (nobody listens, or it could not be registered), else
 *    what eh_tracepoint_write() returns.
 *
 * Encoding (the same bytes as the LinuxTracepoints dynamic builder):
 *  - The header's flags are EH_FLAG_DEFAULT, its level the set's level; the
 *    metadata extension is always present; values are in host byte order.
 *  - A field declaration is its NUL-terminated name, then the encoding
 *    byte; with a nonzero tag: encoding | 0x80, format | 0x80, 16-bit tag;
 *    else with a nonzero format: encoding | 0x80, format; else the encoding
 *    alone.
 *  - Counted strings, binary fields and variable arrays have a 16-bit
 *    count in the payload, min(count, 65535), followed by that many units.
 *
 * Threads: a provider and its sets are created and closed by one thread at
 * a time (the caller serialises eh_dyn_provider_* calls on one provider);
 * eh_dyn_set_enabled() and writes through a set may run on any number of
 * threads. A builder belongs to one thread at a time (one per thread is
 * usual).
 *
 * Allocation uses realloc() and free(). To use another allocator, define
 * both EH_DYN_REALLOC(ptr, size) and EH_DYN_FREE(ptr) before including this
 * header (per translation unit; an object must be freed by the translation
 * unit's allocator that made it).
 *
 * Public names start with eh_dyn_/EH_DYN_; eh__dyn_ names are private.
 */
#ifndef EVENTHEADER_EH_DYNAMIC_H
#define EVENTHEADER_EH_DYNAMIC_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <eventheader/eventheader.h>
#include <eventheader/eh-tracepoint.h>

#ifndef EH_DYN_REALLOC
#define EH_DYN_REALLOC(ptr, size) realloc((ptr), (size))
#endif
#ifndef EH_DYN_FREE
#define EH_DYN_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Largest metadata (event name and field declarations) plus payload that
 * eh_dyn_builder_write() accepts: the limit of the LinuxTracepoints dynamic
 * builder, which keeps every event with header, extensions and activity ids
 * under the kernel's 64 KiB.
 */
#define EH_DYN_META_DATA_MAX (65535 - (52 + 16))

/**
 * struct eh_dyn_set - the tracepoint of one level and keyword of a provider
 * @tp: the tracepoint; its address is known to the kernel while registered
 * @err: 0 if registered, else why not (the set is then never enabled)
 *
 * Made by eh_dyn_provider_register_set(), freed by eh_dyn_provider_close().
 * Read-only for users.
 */
struct eh_dyn_set {
	struct eh_tracepoint tp;
	int err;
};

/**
 * struct eh_dyn_provider - a provider opened at run time
 * @provider: the runtime's provider; its @name and @options point into
 *	@name and @options
 * @name: the provider name (owned)
 * @options: "" or "G<group>" (owned)
 * @sets: the event sets, in creation order (owned)
 * @sets_count: number of entries of @sets
 * @sets_cap: allocated entries of @sets
 * @err: result of eh_dyn_provider_open()
 *
 * Filled in by eh_dyn_provider_open(); users only read it, preferably
 * through the eh_dyn_provider_*() accessors.
 */
struct eh_dyn_provider {
	struct eh_provider provider;
	char *name;
	char *options;
	struct eh_dyn_set **sets;
	size_t sets_count;
	size_t sets_cap;
	int err;
};

/**
 * struct eh_dyn_builder - an event being built
 * @meta: 4 bytes reserved for the metadata extension's header, then the
 *	event name and the field declarations
 * @meta_size: bytes used in @meta; 0 before the first eh_dyn_builder_reset()
 * @meta_cap: bytes allocated for @meta
 * @data: the payload
 * @data_size: bytes used in @data
 * @data_cap: bytes allocated for @data
 * @header: the event header; its level is taken from the set at write time
 * @err: first error since the last reset, or 0
 *
 * Initialise with EH_DYN_BUILDER_INIT or eh_dyn_builder_init(), release
 * with eh_dyn_builder_destroy(). Users only read the fields (tests and
 * debuggers may find @meta and @data useful).
 */
struct eh_dyn_builder {
	unsigned char *meta;
	size_t meta_size;
	size_t meta_cap;
	unsigned char *data;
	size_t data_size;
	size_t data_cap;
	struct eh_header header;
	int err;
};

#define EH_DYN_BUILDER_INIT { 0, 0, 0, 0, 0, 0, { 0, 0, 0, 0, 0, 0 }, 0 }

/*
 * Providers and event sets
 */

/* A new string: @prefix then @s, or NULL when out of memory. */
static inline char *eh__dyn_strdup2(const char *prefix, const char *s)
{
	size_t np = strlen(prefix), ns = strlen(s);
	char *r = (char *)EH_DYN_REALLOC(NULL, np + ns + 1);

	if (r) {
		memcpy(r, prefix, np);
		memcpy(r + np, s, ns + 1);
	}
	return r;
}

/**
 * eh_dyn_provider_open() - open a provider
 * @p: the provider object to fill in (not open)
 * @name: provider name: not empty, no ' ', ':' or control characters
 *	([A-Za-z0-9_] recommended); copied
 * @group: provider group of [a-z0-9], or NULL or "" for none; copied. The
 *	tracepoint names get "G<group>" at the end.
 *
 * Registers the provider with user_events (opening user_events_data if it
 * is the module's first provider). Whatever the result, @p can then be used
 * and must be closed with eh_dyn_provider_close(): when it is not
 * registered, its sets carry the error and are never enabled.
 *
 * Return: 0; EINVAL for a bad @name or @group, or when @name and @group
 * together are too long for a tracepoint name (233 characters at most);
 * ENOMEM; or the errno of opening user_events_data (e.g. ENOENT: no tracefs
 * or no CONFIG_USER_EVENTS; EACCES: no permission). eh_dyn_provider_errno()
 * returns it later.
 */
static inline int eh_dyn_provider_open(struct eh_dyn_provider *p,
				       const char *name, const char *group)
{
	memset(p, 0, sizeof(*p));
	if (!group)
		group = "";
	/* Like eh_tracepoint_name_fits(name, "G<group>"). */
	if (!eh_provider_name_valid(name) || !eh_provider_group_valid(group) ||
	    strlen(name) + (*group ? 1 + strlen(group) : 0) +
			    EH_NAME_ATTRIBUTES_MAX >= (size_t)EH_NAME_MAX) {
		p->err = EINVAL;
		return p->err;
	}
	p->name = eh__dyn_strdup2("", name);
	p->options = eh__dyn_strdup2(*group ? "G" : "", group);
	if (!p->name || !p->options) {
		EH_DYN_FREE(p->name);
		EH_DYN_FREE(p->options);
		p->name = p->options = 0;
		p->err = ENOMEM;
		return p->err;
	}
	p->provider.name = p->name;
	p->provider.options = p->options;
	p->err = eh_provider_register(&p->provider, 0, 0);
	return p->err;
}

/**
 * eh_dyn_provider_close() - unregister a provider and free its sets
 * @p: a provider given to eh_dyn_provider_open()
 *
 * The provider's set pointers become invalid: no write may be in progress
 * or start through them. Must be called before a shared library that opened
 * @p is unloaded. @p may be opened again afterwards.
 */
static inline void eh_dyn_provider_close(struct eh_dyn_provider *p)
{
	size_t i;

	for (i = 0; i < p->sets_count; i++) {
		eh_tracepoint_unregister(&p->sets[i]->tp);
		EH_DYN_FREE(p->sets[i]);
	}
	EH_DYN_FREE(p->sets);
	eh_provider_unregister(&p->provider, 0, 0);
	EH_DYN_FREE(p->name);
	EH_DYN_FREE(p->options);
	memset(p, 0, sizeof(*p));
	p->err = EBADF;
}

/**
 * eh_dyn_provider_errno() - result of opening a provider
 * @p: the provider
 *
 * Return: 0 if @p is registered with user_events, else the errno
 * eh_dyn_provider_open() returned (EBADF after eh_dyn_provider_close()).
 */
static inline int eh_dyn_provider_errno(const struct eh_dyn_provider *p)
{
	return p->err;
}

/**
 * eh_dyn_provider_name() - the provider's name
 * @p: the provider
 *
 * Return: the name, or NULL if eh_dyn_provider_open() failed with EINVAL or
 * ENOMEM.
 */
static inline const char *eh_dyn_provider_name(const struct eh_dyn_provider *p)
{
	return p->name;
}

/**
 * eh_dyn_provider_options() - the provider's tracepoint name options
 * @p: the provider
 *
 * Return: "" or "G<group>", or NULL if eh_dyn_provider_open() failed with
 * EINVAL or ENOMEM.
 */
static inline const char *
eh_dyn_provider_options(const struct eh_dyn_provider *p)
{
	return p->options;
}

/**
 * eh_dyn_provider_find_set() - look up an existing event set
 * @p: the provider
 * @level: event level
 * @keyword: event keyword
 *
 * A linear search: keep the pointer rather than looking it up per event.
 *
 * Return: the set, or NULL if eh_dyn_provider_register_set() has not made
 * one for @level and @keyword.
 */
static inline struct eh_dyn_set *
eh_dyn_provider_find_set(const struct eh_dyn_provider *p, uint8_t level,
			 uint64_t keyword)
{
	size_t i;

	for (i = 0; i < p->sets_count; i++)
		if (p->sets[i]->tp.level == level &&
		    p->sets[i]->tp.keyword == keyword)
			return p->sets[i];
	return 0;
}

/**
 * eh_dyn_provider_register_set() - get or make the set of a level, keyword
 * @p: the provider
 * @level: event level (1..5 usual; 0 is invalid but not refused)
 * @keyword: event keyword bits
 *
 * Returns the provider's set for @level and @keyword, registering the
 * tracepoint "<provider>_L<level>K<keyword><options>" the first time. A
 * registration failure (e.g. the provider is not registered, or
 * EADDRINUSE: the name is in use with other fields) is kept in the set,
 * which then is never enabled; see eh_dyn_set_errno().
 *
 * Return: the set, owned by @p until eh_dyn_provider_close(); NULL only
 * when out of memory (writes to a NULL set return EBADF, so it may be used
 * like a disabled one).
 */
static inline struct eh_dyn_set *
eh_dyn_provider_register_set(struct eh_dyn_provider *p, uint8_t level,
			     uint64_t keyword)
{
	struct eh_dyn_set *set = eh_dyn_provider_find_set(p, level, keyword);

	if (set)
		return set;
	if (p->sets_count == p->sets_cap) {
		size_t cap = p->sets_cap ? p->sets_cap * 2 : 4;
		void *sets;

		if (cap > SIZE_MAX / sizeof(*p->sets))
			return 0;
		sets = EH_DYN_REALLOC(p->sets, cap * sizeof(*p->sets));
		if (!sets)
			return 0;
		p->sets = (struct eh_dyn_set **)sets;
		p->sets_cap = cap;
	}
	set = (struct eh_dyn_set *)EH_DYN_REALLOC(NULL, sizeof(*set));
	if (!set)
		return 0;
	memset(set, 0, sizeof(*set));
	set->tp.write_index = -1;
	set->tp.level = level;
	set->tp.keyword = keyword;
	if (p->provider.registered)
		set->err = eh_tracepoint_register(&set->tp, &p->provider);
	else
		set->err = p->err ? p->err : EBADF;
	p->sets[p->sets_count++] = set;
	return set;
}

/**
 * eh_dyn_provider_enabled() - would an event of a level, keyword be kept?
 * @p: the provider
 * @level: event level
 * @keyword: event keyword
 *
 * Only looks at sets that exist (see eh_dyn_provider_register_set()).
 *
 * Return: nonzero if a consumer has that tracepoint enabled now.
 */
static inline int eh_dyn_provider_enabled(const struct eh_dyn_provider *p,
					  uint8_t level, uint64_t keyword)
{
	const struct eh_dyn_set *set = eh_dyn_provider_find_set(p, level,
								 keyword);

	return set && eh_tracepoint_enabled(&set->tp);
}

/**
 * eh_dyn_set_enabled() - does any consumer want events of this set now?
 * @set: the set, or NULL
 *
 * One relaxed load. Check it before building an event.
 *
 * Return: nonzero if enabled; 0 for NULL.
 */
static inline int eh_dyn_set_enabled(const struct eh_dyn_set *set)
{
	return set && eh_tracepoint_enabled(&set->tp);
}

/**
 * eh_dyn_set_errno() - why a set is not registered
 * @set: the set, or NULL
 *
 * Return: 0 if registered; else the errno of its registration, or of the
 * provider's when the provider is not registered; ENOMEM for NULL (what
 * eh_dyn_provider_register_set() returns when out of memory).
 */
static inline int eh_dyn_set_errno(const struct eh_dyn_set *set)
{
	return set ? set->err : ENOMEM;
}

/*
 * Builder
 */

/**
 * eh_dyn_builder_init() - initialise a builder (no allocation)
 * @b: the builder
 *
 * Same as assigning EH_DYN_BUILDER_INIT.
 */
static inline void eh_dyn_builder_init(struct eh_dyn_builder *b)
{
	memset(b, 0, sizeof(*b));
}

/**
 * eh_dyn_builder_destroy() - free a builder's buffers
 * @b: the builder; it is left initialised and can be used again
 */
static inline void eh_dyn_builder_destroy(struct eh_dyn_builder *b)
{
	EH_DYN_FREE(b->meta);
	EH_DYN_FREE(b->data);
	eh_dyn_builder_init(b);
}

/* Make room for @need bytes in a buffer, doubling from 256. */
static inline int eh__dyn_grow(unsigned char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 256;
	void *r;

	if (need <= *cap)
		return 0;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	r = EH_DYN_REALLOC(*buf, n);
	if (!r)
		return ENOMEM;
	*buf = (unsigned char *)r;
	*cap = n;
	return 0;
}

/**
 * eh_dyn_builder_reserve() - allocate buffer space in advance
 * @b: the builder
 * @meta: bytes of metadata (event name and field declarations) to hold
 * @data: bytes of payload to hold
 *
 * Optional: buffers grow as needed. Does not change the event.
 *
 * Return: 0 or ENOMEM (not recorded in the builder).
 */
static inline int eh_dyn_builder_reserve(struct eh_dyn_builder *b,
					 size_t meta, size_t data)
{
	if (meta > SIZE_MAX - sizeof(struct eh_extension) ||
	    eh__dyn_grow(&b->meta, &b->meta_cap,
			 meta + sizeof(struct eh_extension)) ||
	    eh__dyn_grow(&b->data, &b->data_cap, data))
		return ENOMEM;
	return 0;
}

/* Record @err unless an error is already recorded; return the recorded. */
static inline int eh__dyn_fail(struct eh_dyn_builder *b, int err)
{
	if (b->err)
		return b->err;
	b->err = err;
	return err;
}

/**
 * eh_dyn_builder_reset() - start a new event
 * @b: the builder
 * @name: event name, "Name" or "Name;attr=value;..." (';' in a value is
 *	written ";;"); copied
 * @tag: 16-bit event tag, or 0
 *
 * Clears the fields, the recorded error, id, version and opcode; keeps the
 * buffers.
 *
 * Return: 0, EINVAL for a NULL @name, or ENOMEM (both recorded).
 */
static inline int eh_dyn_builder_reset(struct eh_dyn_builder *b,
				       const char *name, uint16_t tag)
{
	size_t n;

	b->meta_size = 0;
	b->data_size = 0;
	b->err = 0;
	memset(&b->header, 0, sizeof(b->header));
	b->header.flags = EH_FLAG_DEFAULT;
	b->header.tag = tag;
	if (!name)
		return eh__dyn_fail(b, EINVAL);
	n = strlen(name) + 1;
	if (n > SIZE_MAX - sizeof(struct eh_extension) ||
	    eh__dyn_grow(&b->meta, &b->meta_cap,
			 sizeof(struct eh_extension) + n))
		return eh__dyn_fail(b, ENOMEM);
	memset(b->meta, 0, sizeof(struct eh_extension));
	memcpy(b->meta + sizeof(struct eh_extension), name, n);
	b->meta_size = sizeof(struct eh_extension) + n;
	return 0;
}

/**
 * eh_dyn_builder_id_version() - set the event's stable id and version
 * @b: the builder
 * @id: stable event id, or 0 (the default) when the name identifies it
 * @version: layout version; bump it when the fields of an event with a
 *	nonzero @id change
 *
 * Kept until the next eh_dyn_builder_reset().
 */
static inline void eh_dyn_builder_id_version(struct eh_dyn_builder *b,
					     uint16_t id, uint8_t version)
{
	b->header.id = id;
	b->header.version = version;
}

/**
 * eh_dyn_builder_opcode() - set the event's opcode
 * @b: the builder
 * @opcode: enum eh_opcode, e.g. EH_OPCODE_ACTIVITY_START; default
 *	EH_OPCODE_INFO
 *
 * Kept until the next eh_dyn_builder_reset().
 */
static inline void eh_dyn_builder_opcode(struct eh_dyn_builder *b,
					 uint8_t opcode)
{
	b->header.opcode = opcode;
}

/**
 * eh_dyn_builder_error() - the error recorded since the last reset
 * @b: the builder
 *
 * Return: 0, EINVAL or ENOMEM.
 */
static inline int eh_dyn_builder_error(const struct eh_dyn_builder *b)
{
	return b->err;
}

/*
 * Check the common arguments of an add and make room for a declaration of
 * @name with @format and @tag plus @data bytes of payload. Returns 0 with
 * the name's length (NUL included) in *@name_len, or the recorded error; on
 * error the event is unchanged.
 */
static inline int eh__dyn_prepare(struct eh_dyn_builder *b, const char *name,
				  size_t *name_len, uint8_t format,
				  uint16_t tag, size_t data)
{
	size_t meta;

	if (b->err)
		return b->err;
	if (!b->meta_size || !name)
		return eh__dyn_fail(b, EINVAL);
	*name_len = strlen(name) + 1;
	meta = *name_len + 1 + (tag ? 3 : format ? 1 : 0);
	if (meta > SIZE_MAX - b->meta_size ||
	    data > SIZE_MAX - b->data_size ||
	    eh__dyn_grow(&b->meta, &b->meta_cap, b->meta_size + meta) ||
	    eh__dyn_grow(&b->data, &b->data_cap, b->data_size + data))
		return eh__dyn_fail(b, ENOMEM);
	return 0;
}

/* Append a field declaration; room was made by eh__dyn_prepare(). */
static inline void eh__dyn_put_meta(struct eh_dyn_builder *b,
				    const char *name, size_t name_len,
				    uint8_t encoding, uint8_t format,
				    uint16_t tag)
{
	unsigned char *m = b->meta + b->meta_size;

	memcpy(m, name, name_len);
	m += name_len;
	if (tag) {
		*m++ = (unsigned char)(encoding | EH_ENC_CHAIN_FLAG);
		*m++ = (unsigned char)(format | EH_FMT_CHAIN_FLAG);
		memcpy(m, &tag, 2);
		m += 2;
	} else if (format) {
		*m++ = (unsigned char)(encoding | EH_ENC_CHAIN_FLAG);
		*m++ = format;
	} else {
		*m++ = encoding;
	}
	b->meta_size = (size_t)(m - b->meta);
}

/* Append payload bytes; room was made by eh__dyn_prepare(). */
static inline void eh__dyn_put_data(struct eh_dyn_builder *b, const void *p,
				    size_t size)
{
	if (size)
		memcpy(b->data + b->data_size, p, size);
	b->data_size += size;
}

static inline void eh__dyn_put_count(struct eh_dyn_builder *b, uint16_t count)
{
	eh__dyn_put_data(b, &count, 2);
}

/**
 * eh_dyn_builder_add_struct() - add a struct: the next fields are its members
 * @b: the builder
 * @name: field name
 * @field_count: number of following fields that belong to the struct,
 *	1..127 (a struct member may itself be a struct)
 * @tag: 16-bit field tag, or 0
 * @bookmark: if not NULL, receives a position for
 *	eh_dyn_builder_set_struct_field_count() (0 on error)
 *
 * A struct has no payload of its own. Use the bookmark when the member
 * count is only known after the members are added.
 *
 * Return: 0 or the recorded error (EINVAL: @field_count out of range).
 */
static inline int eh_dyn_builder_add_struct(struct eh_dyn_builder *b,
					    const char *name,
					    uint8_t field_count, uint16_t tag,
					    size_t *bookmark)
{
	size_t n;
	int err;

	if (bookmark)
		*bookmark = 0;
	if (b->err)
		return b->err;
	if (!name || field_count < 1 || field_count > EH_STRUCT_FIELDS_MAX)
		return eh__dyn_fail(b, EINVAL);
	err = eh__dyn_prepare(b, name, &n, field_count, tag, 0);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, EH_ENC_STRUCT, field_count, tag);
	if (bookmark)
		*bookmark = b->meta_size - (tag ? 3 : 1);
	return 0;
}

/**
 * eh_dyn_builder_set_struct_field_count() - change a struct's member count
 * @b: the builder
 * @bookmark: from eh_dyn_builder_add_struct() since the last reset
 * @field_count: the new count, 1..127
 *
 * Return: 0 or the recorded error (EINVAL: bad @bookmark or @field_count).
 */
static inline int
eh_dyn_builder_set_struct_field_count(struct eh_dyn_builder *b,
				      size_t bookmark, uint8_t field_count)
{
	if (b->err)
		return b->err;
	if (field_count < 1 || field_count > EH_STRUCT_FIELDS_MAX ||
	    bookmark < sizeof(struct eh_extension) + 3 ||
	    bookmark >= b->meta_size ||
	    b->meta[bookmark - 1] != (EH_ENC_STRUCT | EH_ENC_CHAIN_FLAG))
		return eh__dyn_fail(b, EINVAL);
	b->meta[bookmark] = (unsigned char)((b->meta[bookmark] &
					     EH_FMT_CHAIN_FLAG) | field_count);
	return 0;
}

/**
 * eh_dyn_builder_add_value() - add a fixed-size value
 * @b: the builder
 * @name: field name
 * @value: the value's bytes, in host byte order (copied)
 * @size: 1, 2, 4, 8 or 16: encoded as value8, value16, value32, value64 or
 *	value128
 * @format: enum eh_field_format, e.g. EH_FMT_SIGNED_INT, EH_FMT_FLOAT; 0
 *	for the encoding's default (unsigned int; hex bytes for 16 bytes)
 * @tag: 16-bit field tag, or 0
 *
 * Return: 0 or the recorded error (EINVAL: bad @size, @format above 127,
 * NULL @name or @value).
 */
static inline int eh_dyn_builder_add_value(struct eh_dyn_builder *b,
					   const char *name, const void *value,
					   size_t size, uint8_t format,
					   uint16_t tag)
{
	uint8_t enc = eh_value_encoding(size);
	size_t n;
	int err;

	if (b->err)
		return b->err;
	if (!name || !enc || !value || (format & EH_FMT_CHAIN_FLAG))
		return eh__dyn_fail(b, EINVAL);
	err = eh__dyn_prepare(b, name, &n, format, tag, size);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, enc, format, tag);
	eh__dyn_put_data(b, value, size);
	return 0;
}

/**
 * eh_dyn_builder_add_values() - add a variable-length array of values
 * @b: the builder
 * @name: field name
 * @values: @count values of @size bytes each, in host byte order (copied);
 *	may be NULL when @count is 0
 * @count: number of values; only the first 65535 are sent
 * @size: bytes per value: 1, 2, 4, 8 or 16, as for eh_dyn_builder_add_value()
 * @format: as for eh_dyn_builder_add_value()
 * @tag: 16-bit field tag, or 0
 *
 * The payload gets a 16-bit count, min(@count, 65535), then the values.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_values(struct eh_dyn_builder *b,
					    const char *name,
					    const void *values, size_t count,
					    size_t size, uint8_t format,
					    uint16_t tag)
{
	uint8_t enc = eh_value_encoding(size);
	uint16_t n16 = eh__count16(count);
	size_t n;
	int err;

	if (b->err)
		return b->err;
	if (!name || !enc || (!values && count) ||
	    (format & EH_FMT_CHAIN_FLAG))
		return eh__dyn_fail(b, EINVAL);
	err = eh__dyn_prepare(b, name, &n, format, tag, 2 + (size_t)n16 * size);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, (uint8_t)(enc | EH_ENC_VARRAY_FLAG),
			 format, tag);
	eh__dyn_put_count(b, n16);
	eh__dyn_put_data(b, values, (size_t)n16 * size);
	return 0;
}

/* A 16-bit count and @count units of @unit bytes (clamped to 65535). */
static inline int eh__dyn_add_counted(struct eh_dyn_builder *b,
				      const char *name, uint8_t enc,
				      const void *p, size_t count, size_t unit,
				      uint8_t format, uint16_t tag)
{
	uint16_t n16 = eh__count16(count);
	size_t n;
	int err;

	if (b->err)
		return b->err;
	if (!name || (!p && count) || (format & EH_FMT_CHAIN_FLAG))
		return eh__dyn_fail(b, EINVAL);
	err = eh__dyn_prepare(b, name, &n, format, tag, 2 + (size_t)n16 * unit);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, enc, format, tag);
	eh__dyn_put_count(b, n16);
	eh__dyn_put_data(b, p, (size_t)n16 * unit);
	return 0;
}

/* A NUL-terminated string of @unit-byte units; NULL is sent as "". */
static inline int eh__dyn_add_z(struct eh_dyn_builder *b, const char *name,
				uint8_t enc, const void *s, size_t unit,
				uint8_t format, uint16_t tag)
{
	static const uint32_t empty = 0;
	size_t n, size;
	int err;

	if (b->err)
		return b->err;
	if (!name || (format & EH_FMT_CHAIN_FLAG))
		return eh__dyn_fail(b, EINVAL);
	if (!s)
		s = &empty;
	size = (eh__zstr_units(s, unit) + 1) * unit;
	err = eh__dyn_prepare(b, name, &n, format, tag, size);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, enc, format, tag);
	eh__dyn_put_data(b, s, size);
	return 0;
}

/**
 * eh_dyn_builder_add_string8() - add a counted string of 8-bit units
 * @b: the builder
 * @name: field name
 * @s: the string (no terminator needed; NULs are sent as they are); may be
 *	NULL when @len is 0
 * @len: number of units; only the first 65535 are sent
 * @format: 0 (UTF-8), EH_FMT_STRING8 (Latin-1), EH_FMT_STRING_XML ...; a
 *	fixed-size format (e.g. EH_FMT_SIGNED_INT) makes it a nullable value:
 *	decoders show length 0 as null and a length of 1, 2, 4, 8 or 16 as
 *	that value
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as string_length16_char8: a 16-bit count, then the units.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_string8(struct eh_dyn_builder *b,
					     const char *name, const char *s,
					     size_t len, uint8_t format,
					     uint16_t tag)
{
	return eh__dyn_add_counted(b, name, EH_ENC_STRING_LENGTH16_CHAR8, s,
				   len, 1, format, tag);
}

/**
 * eh_dyn_builder_add_string16() - add a counted string of 16-bit units
 * @b: the builder
 * @name: field name
 * @s: @len units (char16_t, or wchar_t where it has 16 bits), host byte
 *	order; may be NULL when @len is 0
 * @len: number of units (not bytes); only the first 65535 are sent
 * @format: 0 (UTF-16), EH_FMT_STRING_UTF_BOM, EH_FMT_HEX_BYTES ...
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as string_length16_char16.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_string16(struct eh_dyn_builder *b,
					      const char *name, const void *s,
					      size_t len, uint8_t format,
					      uint16_t tag)
{
	return eh__dyn_add_counted(b, name, EH_ENC_STRING_LENGTH16_CHAR16, s,
				   len, 2, format, tag);
}

/**
 * eh_dyn_builder_add_string32() - add a counted string of 32-bit units
 * @b: the builder
 * @name: field name
 * @s: @len units (char32_t, or wchar_t where it has 32 bits), host byte
 *	order; may be NULL when @len is 0
 * @len: number of units (not bytes); only the first 65535 are sent
 * @format: 0 (UTF-32), EH_FMT_STRING_UTF_BOM, EH_FMT_HEX_BYTES ...
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as string_length16_char32.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_string32(struct eh_dyn_builder *b,
					      const char *name, const void *s,
					      size_t len, uint8_t format,
					      uint16_t tag)
{
	return eh__dyn_add_counted(b, name, EH_ENC_STRING_LENGTH16_CHAR32, s,
				   len, 4, format, tag);
}

/**
 * eh_dyn_builder_add_zstring8() - add a NUL-terminated string of 8-bit units
 * @b: the builder
 * @name: field name
 * @s: the string; NULL is sent as ""
 * @format: 0 (UTF-8), EH_FMT_STRING8 (Latin-1), EH_FMT_STRING_JSON ...
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as zstring_char8: the units and the terminating NUL.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_zstring8(struct eh_dyn_builder *b,
					      const char *name, const char *s,
					      uint8_t format, uint16_t tag)
{
	return eh__dyn_add_z(b, name, EH_ENC_ZSTRING_CHAR8, s, 1, format, tag);
}

/**
 * eh_dyn_builder_add_zstring16() - add a NUL-terminated string of 16-bit units
 * @b: the builder
 * @name: field name
 * @s: the string, ended by a 0 unit; NULL is sent as ""
 * @format: 0 (UTF-16), EH_FMT_STRING_UTF_BOM ...
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as zstring_char16.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_zstring16(struct eh_dyn_builder *b,
					       const char *name, const void *s,
					       uint8_t format, uint16_t tag)
{
	return eh__dyn_add_z(b, name, EH_ENC_ZSTRING_CHAR16, s, 2, format, tag);
}

/**
 * eh_dyn_builder_add_zstring32() - add a NUL-terminated string of 32-bit units
 * @b: the builder
 * @name: field name
 * @s: the string, ended by a 0 unit; NULL is sent as ""
 * @format: 0 (UTF-32), EH_FMT_STRING_UTF_BOM ...
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as zstring_char32.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_zstring32(struct eh_dyn_builder *b,
					       const char *name, const void *s,
					       uint8_t format, uint16_t tag)
{
	return eh__dyn_add_z(b, name, EH_ENC_ZSTRING_CHAR32, s, 4, format, tag);
}

/**
 * eh_dyn_builder_add_binary() - add a counted run of bytes
 * @b: the builder
 * @name: field name
 * @p: the bytes; may be NULL when @size is 0
 * @size: number of bytes; only the first 65535 are sent
 * @format: 0 (hex bytes), or a fixed-size format for a nullable value as
 *	with eh_dyn_builder_add_string8()
 * @tag: 16-bit field tag, or 0
 *
 * Encoded as binary_length16_char8: a 16-bit count, then the bytes.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_add_binary(struct eh_dyn_builder *b,
					    const char *name, const void *p,
					    size_t size, uint8_t format,
					    uint16_t tag)
{
	return eh__dyn_add_counted(b, name, EH_ENC_BINARY_LENGTH16_CHAR8, p,
				   size, 1, format, tag);
}

/**
 * eh_dyn_builder_raw_add_meta() - add a field declaration only
 * @b: the builder
 * @name: field name
 * @encoding: EH_ENC_STRUCT .. EH_ENC_BINARY_LENGTH16_CHAR8, optionally with
 *	EH_ENC_VARRAY_FLAG (constant arrays and the chain flag are refused)
 * @format: enum eh_field_format; for EH_ENC_STRUCT the member count 1..127
 * @tag: 16-bit field tag, or 0
 *
 * For layouts the other calls do not make (an array of structs or of
 * strings, say): the caller then appends the matching payload with
 * eh_dyn_builder_raw_add_data(), e.g. a uint16_t count and the elements for
 * a variable array. Nothing checks that payload and declarations agree.
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_raw_add_meta(struct eh_dyn_builder *b,
					      const char *name,
					      uint8_t encoding, uint8_t format,
					      uint16_t tag)
{
	uint8_t v = encoding & EH_ENC_VALUE_MASK;
	size_t n;
	int err;

	if (b->err)
		return b->err;
	if (!name || v < EH_ENC_STRUCT || v >= EH_ENC_MAX ||
	    (encoding & EH_ENC_FLAG_MASK & ~EH_ENC_VARRAY_FLAG) ||
	    (format & EH_FMT_CHAIN_FLAG) || (v == EH_ENC_STRUCT && !format))
		return eh__dyn_fail(b, EINVAL);
	err = eh__dyn_prepare(b, name, &n, format, tag, 0);
	if (err)
		return err;
	eh__dyn_put_meta(b, name, n, encoding, format, tag);
	return 0;
}

/**
 * eh_dyn_builder_raw_add_data() - append bytes to the payload only
 * @b: the builder
 * @p: the bytes (host byte order for multi-byte values); may be NULL when
 *	@size is 0
 * @size: number of bytes
 *
 * See eh_dyn_builder_raw_add_meta().
 *
 * Return: 0 or the recorded error.
 */
static inline int eh_dyn_builder_raw_add_data(struct eh_dyn_builder *b,
					      const void *p, size_t size)
{
	if (b->err)
		return b->err;
	if (!b->meta_size || (!p && size))
		return eh__dyn_fail(b, EINVAL);
	if (size > SIZE_MAX - b->data_size ||
	    eh__dyn_grow(&b->data, &b->data_cap, b->data_size + size))
		return eh__dyn_fail(b, ENOMEM);
	eh__dyn_put_data(b, p, size);
	return 0;
}

/**
 * eh_dyn_builder_write() - write the event to a set's tracepoint
 * @b: the builder, after eh_dyn_builder_reset() and the adds
 * @set: the set (its level goes into the header); NULL acts as a set that
 *	is never enabled
 * @activity_id: 16-byte activity id, or NULL
 * @related_id: 16-byte related (parent) activity id, or NULL; used only
 *	with @activity_id
 *
 * The builder is not changed (but for the reserved extension header), so
 * the same event can be written again, or to other sets.
 *
 * Return: 0; the error recorded by the builder (EINVAL, ENOMEM; EINVAL too
 * if it was never reset); ERANGE if metadata and payload together are over
 * EH_DYN_META_DATA_MAX bytes; EBADF if @set is not enabled or NULL; or the
 * errno of writing.
 */
static inline int eh_dyn_builder_write(struct eh_dyn_builder *b,
				       const struct eh_dyn_set *set,
				       const void *activity_id,
				       const void *related_id)
{
	struct eh_extension ext;
	struct eh_header h;
	struct iovec iov[3];
	size_t meta;

	if (b->err)
		return b->err;
	if (!b->meta_size)
		return EINVAL;
	meta = b->meta_size - sizeof(ext);
	if (meta + b->data_size > EH_DYN_META_DATA_MAX)
		return ERANGE;
	if (!set)
		return EBADF;
	ext.size = (uint16_t)meta;
	ext.kind = EH_EXT_METADATA;
	memcpy(b->meta, &ext, sizeof(ext));
	h = b->header;
	h.level = set->tp.level;
	iov[0].iov_base = 0;
	iov[0].iov_len = 0;
	iov[1].iov_base = b->meta;
	iov[1].iov_len = b->meta_size;
	iov[2].iov_base = b->data;
	iov[2].iov_len = b->data_size;
	return eh_tracepoint_write(&set->tp, &h, activity_id, related_id, iov,
				   3);
}

#ifdef __cplusplus
}
#endif

#endif /* EVENTHEADER_EH_DYNAMIC_H */
