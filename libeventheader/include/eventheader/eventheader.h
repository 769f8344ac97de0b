/* SPDX-License-Identifier: MIT */
/*
 * eventheader.h - the EventHeader binary format
 *
 * An EventHeader event is what a program writes to a Linux user_events
 * tracepoint after the kernel's write index:
 *
 *	struct eh_header              8 bytes, always
 *	struct eh_extension + bytes   0 or more, chained (EH_FLAG_EXTENSION)
 *	payload                       the field values, tightly packed
 *
 * Every multi-byte value is in the byte order named by the header flags
 * (the writer's native order). The metadata extension (kind 1) holds the
 * event name and one declaration per field:
 *
 *	char     event_name[];        NUL-terminated, "Name[;attr=value]..."
 *	then for each field:
 *	char     field_name[];        NUL-terminated, same attribute syntax
 *	uint8_t  encoding;            enum eh_field_encoding | flags
 *	uint8_t  format;              only if encoding & EH_ENC_CHAIN_FLAG
 *	uint16_t tag;                 only if format & EH_FMT_CHAIN_FLAG
 *	uint16_t array_count;         only if encoding & EH_ENC_CARRAY_FLAG
 *
 * A struct field (EH_ENC_STRUCT) carries its member count in the format
 * byte (1..127) and groups the next that many fields. A variable array
 * (EH_ENC_VARRAY_FLAG) has a uint16_t element count in the payload in front
 * of its elements; a constant array has its count in the metadata.
 *
 * The tracepoint an event is written to is named
 *
 *	<Provider>_L<level>K<keyword>[<options>]
 *
 * with level and keyword in lowercase hex without leading zeros and options
 * each an uppercase letter followed by [0-9a-z]*, sorted. The only option
 * defined is G<group>. The tracepoint is registered with the fields of
 * EH_COMMAND_TYPES, so tracefs sees the header as ordinary fields.
 *
 * This header only describes the format; it has no code that needs linking.
 * Public names start with eh_ or EH_; names with eh__ or EH__ are private.
 */
#ifndef EVENTHEADER_EVENTHEADER_H
#define EVENTHEADER_EVENTHEADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct eh_header - the 8 bytes at the start of every event
 * @flags: enum eh_flags: pointer size, byte order, extensions present
 * @version: layout version of the event; bump when the fields change and
 *	@id is not 0
 * @id: stable event id, or 0 when the event is identified by its name
 * @tag: provider-defined 16-bit event tag, or 0
 * @opcode: enum eh_opcode, e.g. activity start/stop
 * @level: enum eh_level; must equal the L<level> of the tracepoint name
 */
struct eh_header {
	uint8_t flags;
	uint8_t version;
	uint16_t id;
	uint16_t tag;
	uint8_t opcode;
	uint8_t level;
};

/**
 * struct eh_extension - header of one extension block
 * @size: number of bytes that follow this 4-byte header (no padding)
 * @kind: enum eh_extension_kind, with EH_EXT_CHAIN_FLAG set when another
 *	extension block follows this one
 */
struct eh_extension {
	uint16_t size;
	uint16_t kind;
};

/* enum eh_flags - bits of eh_header.flags */
enum eh_flags {
	EH_FLAG_NONE = 0x00,		/* 32-bit pointers, big-endian */
	EH_FLAG_POINTER64 = 0x01,	/* the writer had 64-bit pointers */
	EH_FLAG_LITTLE_ENDIAN = 0x02,	/* values are little-endian */
	EH_FLAG_EXTENSION = 0x04,	/* one or more extensions follow */
};

#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
#define EH__FLAG_PTR EH_FLAG_POINTER64
#else
#define EH__FLAG_PTR 0
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EH__FLAG_ORDER EH_FLAG_LITTLE_ENDIAN
#else
#define EH__FLAG_ORDER 0
#endif
/* Flags of an event written by this process (0x03 on x86-64). */
#define EH_FLAG_DEFAULT (EH__FLAG_PTR | EH__FLAG_ORDER)
/* The same with the extension bit (0x07 on x86-64). */
#define EH_FLAG_DEFAULT_WITH_EXTENSION (EH_FLAG_DEFAULT | EH_FLAG_EXTENSION)

/* enum eh_extension_kind - eh_extension.kind */
enum eh_extension_kind {
	EH_EXT_KIND_MASK = 0x7fff,
	EH_EXT_CHAIN_FLAG = 0x8000,	/* another extension follows */
	EH_EXT_INVALID = 0,
	EH_EXT_METADATA = 1,		/* event name + field declarations */
	EH_EXT_ACTIVITY_ID = 2,		/* 16 bytes, or 32 with a related id */
};

/* enum eh_opcode - eh_header.opcode */
enum eh_opcode {
	EH_OPCODE_INFO = 0,
	EH_OPCODE_ACTIVITY_START = 1,	/* starts the activity of its id */
	EH_OPCODE_ACTIVITY_STOP = 2,	/* ends the activity of its id */
	EH_OPCODE_COLLECTION_START = 3,
	EH_OPCODE_COLLECTION_STOP = 4,
	EH_OPCODE_EXTENSION = 5,
	EH_OPCODE_REPLY = 6,
	EH_OPCODE_RESUME = 7,
	EH_OPCODE_SUSPEND = 8,
	EH_OPCODE_SEND = 9,
	EH_OPCODE_RECEIVE = 0xf0,
};

/* enum eh_level - eh_header.level (values above 5 are allowed) */
enum eh_level {
	EH_LEVEL_INVALID = 0,
	EH_LEVEL_CRITICAL = 1,
	EH_LEVEL_ERROR = 2,
	EH_LEVEL_WARNING = 3,
	EH_LEVEL_INFO = 4,
	EH_LEVEL_VERBOSE = 5,
};

/*
 * enum eh_field_encoding - how a field's value is stored in the payload.
 * The low 5 bits are the encoding; the top 3 bits are flags.
 */
enum eh_field_encoding {
	EH_ENC_VALUE_MASK = 0x1f,
	EH_ENC_FLAG_MASK = 0xe0,
	EH_ENC_CARRAY_FLAG = 0x20,	/* constant array, count in metadata */
	EH_ENC_VARRAY_FLAG = 0x40,	/* variable array, count in payload */
	EH_ENC_CHAIN_FLAG = 0x80,	/* a format byte follows */

	EH_ENC_INVALID = 0,
	EH_ENC_STRUCT = 1,		/* no data; format = member count */
	EH_ENC_VALUE8 = 2,
	EH_ENC_VALUE16 = 3,
	EH_ENC_VALUE32 = 4,
	EH_ENC_VALUE64 = 5,
	EH_ENC_VALUE128 = 6,
	EH_ENC_ZSTRING_CHAR8 = 7,	/* units up to a 0 unit */
	EH_ENC_ZSTRING_CHAR16 = 8,
	EH_ENC_ZSTRING_CHAR32 = 9,
	EH_ENC_STRING_LENGTH16_CHAR8 = 10,	/* uint16_t count, units */
	EH_ENC_STRING_LENGTH16_CHAR16 = 11,
	EH_ENC_STRING_LENGTH16_CHAR32 = 12,
	EH_ENC_BINARY_LENGTH16_CHAR8 = 13,	/* uint16_t count, bytes */
	EH_ENC_MAX = 14,		/* first invalid value */
};

/* Encodings that follow the size of a C type on this machine. */
#if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 8
#define EH_ENC_VALUE_LONG EH_ENC_VALUE64
#else
#define EH_ENC_VALUE_LONG EH_ENC_VALUE32
#endif
#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 8
#define EH_ENC_VALUE_PTR EH_ENC_VALUE64
#else
#define EH_ENC_VALUE_PTR EH_ENC_VALUE32
#endif
#define EH_ENC_VALUE_FLOAT EH_ENC_VALUE32
#define EH_ENC_VALUE_DOUBLE EH_ENC_VALUE64
#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
#define EH_ENC_VALUE_WCHAR EH_ENC_VALUE16
#define EH_ENC_ZSTRING_WCHAR EH_ENC_ZSTRING_CHAR16
#define EH_ENC_STRING_LENGTH16_WCHAR EH_ENC_STRING_LENGTH16_CHAR16
#else
#define EH_ENC_VALUE_WCHAR EH_ENC_VALUE32
#define EH_ENC_ZSTRING_WCHAR EH_ENC_ZSTRING_CHAR32
#define EH_ENC_STRING_LENGTH16_WCHAR EH_ENC_STRING_LENGTH16_CHAR32
#endif

/*
 * enum eh_field_format - how a decoder shows a value. The low 7 bits are
 * the format (or, for EH_ENC_STRUCT, the member count); the top bit says a
 * uint16_t field tag follows.
 */
enum eh_field_format {
	EH_FMT_VALUE_MASK = 0x7f,
	EH_FMT_CHAIN_FLAG = 0x80,	/* a uint16_t tag follows */

	EH_FMT_DEFAULT = 0,		/* the encoding's default */
	EH_FMT_UNSIGNED_INT = 1,	/* value8..value64 */
	EH_FMT_SIGNED_INT = 2,		/* value8..value64 */
	EH_FMT_HEX_INT = 3,		/* value8..value64 */
	EH_FMT_ERRNO = 4,		/* value32 */
	EH_FMT_PID = 5,			/* value32 */
	EH_FMT_TIME = 6,		/* value32/64, seconds since 1970 */
	EH_FMT_BOOLEAN = 7,		/* value8..value32 */
	EH_FMT_FLOAT = 8,		/* value32/64 */
	EH_FMT_HEX_BYTES = 9,		/* any encoding */
	EH_FMT_STRING8 = 10,		/* 8-bit, charset unspecified (Latin-1) */
	EH_FMT_STRING_UTF = 11,		/* UTF-8/16/32 by unit size */
	EH_FMT_STRING_UTF_BOM = 12,	/* a BOM, if present, decides */
	EH_FMT_STRING_XML = 13,		/* like EH_FMT_STRING_UTF_BOM */
	EH_FMT_STRING_JSON = 14,	/* like EH_FMT_STRING_UTF_BOM */
	EH_FMT_UUID = 15,		/* value128, RFC 4122 byte order */
	EH_FMT_PORT = 16,		/* value16, network byte order */
	EH_FMT_IP_ADDRESS = 17,		/* value32 = IPv4, value128 = IPv6 */
	EH_FMT_IP_ADDRESS_OBSOLETE = 18, /* decode as EH_FMT_IP_ADDRESS */
};

/* Limits. */
enum {
	EH_NAME_MAX = 256,		/* tracepoint name, with its NUL */
	EH_STRUCT_FIELDS_MAX = 127,	/* members of one struct */
	EH_ARRAY_MAX = 65535,		/* elements of one array */
	EH_STRING_MAX = 65535,		/* units of a counted string */
	EH_EVENT_MAX = 65535,		/* bytes of one event, header included */
	EH_ACTIVITY_ID_SIZE = 16,
};

/* The fields every EventHeader tracepoint is registered with. */
#define EH_COMMAND_TYPES \
	"u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"
/* Size of a registration command: name, space, EH_COMMAND_TYPES, NUL. */
#define EH_COMMAND_MAX (EH_NAME_MAX + (int)sizeof(EH_COMMAND_TYPES))

/* Longest "_L<level>K<keyword>" a provider name may get (before options). */
#define EH_NAME_ATTRIBUTES_MAX ((int)sizeof("_LffKffffffffffffffff") - 1)
/* The same with the "G" of a group. */
#define EH_NAME_SUFFIX_MAX (EH_NAME_ATTRIBUTES_MAX + 1)

/**
 * eh_value_encoding() - the VALUE encoding of a fixed-size value
 * @size: its size in bytes
 *
 * Return: EH_ENC_VALUE8, 16, 32, 64 or 128 for 1, 2, 4, 8 or 16 bytes;
 * 0 for any other size.
 */
static inline uint8_t eh_value_encoding(size_t size)
{
	switch (size) {
	case 1:
		return EH_ENC_VALUE8;
	case 2:
		return EH_ENC_VALUE16;
	case 4:
		return EH_ENC_VALUE32;
	case 8:
		return EH_ENC_VALUE64;
	case 16:
		return EH_ENC_VALUE128;
	default:
		return 0;
	}
}

/**
 * eh_format_tracepoint_name() - write "<provider>_L<level>K<keyword><options>"
 * @buf: destination
 * @size: size of @buf; EH_NAME_MAX is always enough for a valid name
 * @provider: provider name (no ' ' or ':')
 * @level: event level
 * @keyword: event keyword
 * @options: sorted options such as "Gmygroup", or NULL/"" for none
 *
 * Return: the length of the name (as snprintf), which is >= @size when
 * @buf was too small.
 */
static inline int eh_format_tracepoint_name(char *buf, size_t size,
					    const char *provider,
					    uint8_t level, uint64_t keyword,
					    const char *options)
{
	return snprintf(buf, size, "%s_L%xK%" PRIx64 "%s", provider,
			(unsigned int)level, keyword, options ? options : "");
}

/**
 * eh_parse_tracepoint_name() - split "<provider>_L<level>K<keyword><options>"
 * @name: a tracepoint name (without "user_events:")
 * @provider_len: out: the length of the provider name, or NULL
 * @level: out: the level, or NULL
 * @keyword: out: the keyword, or NULL
 * @options: out: the options after the keyword, "" for none (a pointer
 *	into @name), or NULL
 *
 * The inverse of eh_format_tracepoint_name(), with the rules decoders
 * read names by: the provider is everything before the last '_' (not
 * empty), then 'L' and the level (lowercase hex, at most ff), 'K' and the
 * keyword (lowercase hex, at most 16 digits), then options, each an
 * uppercase letter followed by [0-9a-z]*; the name is shorter than
 * EH_NAME_MAX. Leading zeros are accepted: the name a program registers
 * has none (format the parts again to get it).
 *
 * Return: 1 if @name is an EventHeader tracepoint name, else 0 (and the
 * out values are not set).
 */
static inline int eh_parse_tracepoint_name(const char *name,
					   size_t *provider_len,
					   uint8_t *level, uint64_t *keyword,
					   const char **options)
{
	const char *us = NULL, *s, *opts;
	uint64_t v[2];
	size_t len;
	int i, digits;

	for (s = name; *s; s++)
		if (*s == '_')
			us = s;
	len = (size_t)(s - name);
	if (!us || us == name || len >= (size_t)EH_NAME_MAX)
		return 0;
	s = us + 1;
	for (i = 0; i < 2; i++) {
		if (*s++ != (i ? 'K' : 'L'))
			return 0;
		v[i] = 0;
		for (digits = 0; (*s >= '0' && *s <= '9') ||
				 (*s >= 'a' && *s <= 'f'); s++, digits++) {
			if (digits == 16)
				return 0;
			v[i] = v[i] << 4 | (uint64_t)(*s <= '9' ? *s - '0' :
						      *s - 'a' + 10);
		}
		if (!digits)
			return 0;
	}
	if (v[0] > 0xff)
		return 0;
	opts = s;
	while (*s) {
		if (*s < 'A' || *s > 'Z')
			return 0;
		for (s++; (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9');
		     s++)
			;
	}
	if (provider_len)
		*provider_len = (size_t)(us - name);
	if (level)
		*level = (uint8_t)v[0];
	if (keyword)
		*keyword = v[1];
	if (options)
		*options = opts;
	return 1;
}

/**
 * eh_tracepoint_name_fits() - will every tracepoint name of a provider fit?
 * @name: provider name
 * @options: its options ("" or "G<group>"), or NULL
 *
 * Return: 1 if "<name>_L<level>K<keyword><options>" is shorter than
 * EH_NAME_MAX for every level and keyword, else 0.
 */
static inline int eh_tracepoint_name_fits(const char *name, const char *options)
{
	return strlen(name) + EH_NAME_ATTRIBUTES_MAX +
		       (options ? strlen(options) : 0) < (size_t)EH_NAME_MAX;
}

/**
 * eh_provider_name_valid() - check a provider name
 * @name: the name
 *
 * A provider name is not empty, has no space, ':' or control character,
 * and leaves room for the longest "_L<level>K<keyword>" in a tracepoint
 * name (so at most 234 characters; with options, see
 * eh_tracepoint_name_fits()). [A-Za-z0-9_] is recommended.
 *
 * Return: 1 if valid, else 0.
 */
static inline int eh_provider_name_valid(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!name || !*p)
		return 0;
	for (; *p; p++)
		if (*p <= ' ' || *p == ':' || *p == 0x7f)
			return 0;
	return eh_tracepoint_name_fits(name, NULL);
}

/**
 * eh_provider_group_valid() - check a provider group name
 * @group: the group (may be NULL or "" for none)
 *
 * A group is made of [a-z0-9] only.
 *
 * Return: 1 if valid, else 0.
 */
static inline int eh_provider_group_valid(const char *group)
{
	if (!group)
		return 1;
	for (; *group; group++)
		if (!((*group >= 'a' && *group <= 'z') ||
		      (*group >= '0' && *group <= '9')))
			return 0;
	return 1;
}

/**
 * eh_options_valid() - check a tracepoint name's options string
 * @options: e.g. "Gmygroup"; NULL or "" is valid
 *
 * Each option is an uppercase ASCII letter followed by [0-9a-z]*; options
 * must be sorted by their letter.
 *
 * Return: 1 if valid, else 0.
 */
static inline int eh_options_valid(const char *options)
{
	char prev = 0;

	if (!options)
		return 1;
	while (*options) {
		if (*options < 'A' || *options > 'Z' || *options < prev)
			return 0;
		prev = *options++;
		while ((*options >= 'a' && *options <= 'z') ||
		       (*options >= '0' && *options <= '9'))
			options++;
	}
	return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* EVENTHEADER_EVENTHEADER_H */
