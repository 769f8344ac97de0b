/* SPDX-License-Identifier: MIT */
/*
 * eh-provider.h - write EventHeader events from C or C++, header-only
 *
 * Quick start:
 *
 *	#include <eventheader/eh-provider.h>
 *
 *	EH_DEFINE_PROVIDER(my_provider, "MyCompany_MyComponent");
 *
 *	int main(void)
 *	{
 *		EH_REGISTER(my_provider);           // once, at start-up
 *		EH_WRITE(my_provider, "Started",
 *			 EH_LEVEL(EH_LEVEL_INFO), EH_KEYWORD(0x1),
 *			 EH_INT32("pid", getpid()),
 *			 EH_STRING_UTF8("name", "demo"));
 *		EH_UNREGISTER(my_provider);         // before exit or dlclose
 *	}
 *
 * Build with no extra library: cc app.c (the producer is all in headers).
 * The event goes to the user_events tracepoint
 * "MyCompany_MyComponent_L4K1" and can be recorded with ehrecord, or with
 * "perf record -e user_events:MyCompany_MyComponent_L4K1".
 *
 * Cost: while no consumer listens, EH_WRITE() is one relaxed load and one
 * branch, and its field arguments are NOT evaluated (do not put side
 * effects you rely on in them). When enabled it builds the event on the
 * stack (no heap, no lock) and makes one writev() call.
 *
 * Rules:
 *  - Public names start with eh_/EH_; eh__/EH__ names are private.
 *  - Event names, field names, levels, keywords, opcodes, ids, tags and
 *    constant-array counts are compile-time constants; names are string
 *    literals without ';' (which starts attributes: "Name;attr=value").
 *  - Level 5 (verbose) and keyword 0 are the defaults; the last EH_LEVEL,
 *    EH_OPCODE, EH_ID_VERSION and EH_EVENT_TAG wins; keywords are OR-ed.
 *  - Write macros return an int: 0, EBADF when nobody listens (or the
 *    provider is not registered), E2BIG for an event over 64 KiB, or
 *    writev()'s errno. Positive errno values, as in LinuxTracepoints.
 *  - EH_DEFINE_PROVIDER/EH_DECLARE_PROVIDER go at file scope, outside any
 *    namespace. A provider symbol can be used in any file of the module
 *    that declares it.
 *  - Up to 99 arguments (fields and attributes) per write.
 *
 * The format itself is in eventheader.h, the runtime in eh-tracepoint.h,
 * events built at run time in eh-dynamic.h, and the LinuxTracepoints
 * TraceLogging names in TraceLoggingProvider.h.
 */
#ifndef EVENTHEADER_EH_PROVIDER_H
#define EVENTHEADER_EH_PROVIDER_H

#include <wchar.h>
#include <eventheader/eventheader.h>
#include <eventheader/eh-tracepoint.h>
#include <eventheader/eh-pp.h>

#ifdef __cplusplus
typedef char16_t eh_char16_t;
typedef char32_t eh_char32_t;
#define EH__STATIC_ASSERT(e, msg) static_assert(e, msg)
#else
typedef uint_least16_t eh_char16_t;
typedef uint_least32_t eh_char32_t;
#define EH__STATIC_ASSERT(e, msg) __extension__ _Static_assert(e, msg)
#endif
typedef const void *eh__cptr;

#ifdef __cplusplus
#include <type_traits>

/* C++: what EH_VALUE() / TraceLoggingValue() emit for each type. */
namespace eh__cpp {

template <class T> struct value_traits; /* no entry: type not supported */
#define EH__VT(T, e, f, z)                                                     \
	template <> struct value_traits<T> {                                   \
		enum { enc = (e), fmt = (f), zstr = (z) };                     \
	}
EH__VT(bool, EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0);
EH__VT(char, EH_ENC_VALUE8, EH_FMT_STRING8, 0);
EH__VT(char16_t, EH_ENC_VALUE16, EH_FMT_STRING_UTF, 0);
EH__VT(char32_t, EH_ENC_VALUE32, EH_FMT_STRING_UTF, 0);
EH__VT(wchar_t, EH_ENC_VALUE_WCHAR, EH_FMT_STRING_UTF, 0);
EH__VT(signed char, EH_ENC_VALUE8, EH_FMT_SIGNED_INT, 0);
EH__VT(unsigned char, EH_ENC_VALUE8, 0, 0);
EH__VT(short, EH_ENC_VALUE16, EH_FMT_SIGNED_INT, 0);
EH__VT(unsigned short, EH_ENC_VALUE16, 0, 0);
EH__VT(int, EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0);
EH__VT(unsigned int, EH_ENC_VALUE32, 0, 0);
EH__VT(long, EH_ENC_VALUE_LONG, EH_FMT_SIGNED_INT, 0);
EH__VT(unsigned long, EH_ENC_VALUE_LONG, 0, 0);
EH__VT(long long, EH_ENC_VALUE64, EH_FMT_SIGNED_INT, 0);
EH__VT(unsigned long long, EH_ENC_VALUE64, 0, 0);
EH__VT(float, EH_ENC_VALUE_FLOAT, EH_FMT_FLOAT, 0);
EH__VT(double, EH_ENC_VALUE_DOUBLE, EH_FMT_FLOAT, 0);
EH__VT(void *, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, 0);
EH__VT(const void *, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, 0);
EH__VT(char *, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING8, 1);
EH__VT(const char *, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING8, 1);
EH__VT(char16_t *, EH_ENC_ZSTRING_CHAR16, 0, 2);
EH__VT(const char16_t *, EH_ENC_ZSTRING_CHAR16, 0, 2);
EH__VT(char32_t *, EH_ENC_ZSTRING_CHAR32, 0, 4);
EH__VT(const char32_t *, EH_ENC_ZSTRING_CHAR32, 0, 4);
EH__VT(wchar_t *, EH_ENC_ZSTRING_WCHAR, 0, sizeof(wchar_t));
EH__VT(const wchar_t *, EH_ENC_ZSTRING_WCHAR, 0, sizeof(wchar_t));
#undef EH__VT

/* Metadata bytes after the name: encoding [format [tag]]. */
struct __attribute__((packed)) meta_e { uint8_t e; };
struct __attribute__((packed)) meta_ef { uint8_t e, f; };
struct __attribute__((packed)) meta_eft { uint8_t e, f; uint16_t t; };

template <class T, int HasTag,
	  int Shape = HasTag ? 2 : (value_traits<T>::fmt != 0) ? 1 : 0>
struct value_meta;
template <class T, int H> struct value_meta<T, H, 0> {
	typedef meta_e type;
	static constexpr type make(uint16_t) { return type{ value_traits<T>::enc }; }
};
template <class T, int H> struct value_meta<T, H, 1> {
	typedef meta_ef type;
	static constexpr type make(uint16_t)
	{
		return type{ value_traits<T>::enc | EH_ENC_CHAIN_FLAG,
			     value_traits<T>::fmt };
	}
};
template <class T, int H> struct value_meta<T, H, 2> {
	typedef meta_eft type;
	static constexpr type make(uint16_t tag)
	{
		return type{ value_traits<T>::enc | EH_ENC_CHAIN_FLAG,
			     value_traits<T>::fmt | EH_FMT_CHAIN_FLAG, tag };
	}
};

/* The payload of one value: the value itself, or a string's units. */
template <class T, int Z = value_traits<T>::zstr> struct value_data {
	T v;
	explicit value_data(T x) : v(x) {}
	struct iovec iov() const
	{
		struct iovec r = { (void *)&v, sizeof(v) };
		return r;
	}
};
template <class T, int Z> struct value_data<T *, Z> {
	const void *p;
	size_t n;
	explicit value_data(T *s) : p(s), n(eh__zstr_bytes(&p, Z)) {}
	struct iovec iov() const
	{
		struct iovec r = { (void *)p, n };
		return r;
	}
};
template <class T> struct value_data<T *, 0> {
	T *v;
	explicit value_data(T *x) : v(x) {}
	struct iovec iov() const
	{
		struct iovec r = { (void *)&v, sizeof(v) };
		return r;
	}
};

} /* namespace eh__cpp */

#define EH__VTYPE(v) std::decay<decltype(v)>::type
#endif /* __cplusplus */

/*
 * Providers
 */

/**
 * EH_DECLARE_PROVIDER(sym) - make a provider defined in another file usable
 * @sym: the provider's C identifier
 *
 * Can be thought of as: extern struct eh_provider sym;
 */
#define EH_DECLARE_PROVIDER(sym)                                               \
	extern struct eh_provider sym __attribute__((visibility("hidden")));   \
	extern struct eh_tracepoint *const EH__CAT(__start_eh_tp_, sym)[]      \
		__attribute__((weak, visibility("hidden")));                   \
	extern struct eh_tracepoint *const EH__CAT(__stop_eh_tp_, sym)[]       \
		__attribute__((weak, visibility("hidden")))

/**
 * EH_DEFINE_PROVIDER(sym, name) - define a provider
 * @sym: a C identifier used to refer to the provider in this module
 * @name: the provider name, a string literal without ' ' or ':'
 *	([A-Za-z0-9_] recommended)
 *
 * Can be thought of as:
 *	struct eh_provider sym = { name, "" };
 */
#define EH_DEFINE_PROVIDER(sym, name) EH__DEFINE_PROVIDER(sym, name, "")

/**
 * EH_DEFINE_PROVIDER_GROUP(sym, name, group) - define a provider in a group
 * @sym: as for EH_DEFINE_PROVIDER()
 * @name: as for EH_DEFINE_PROVIDER()
 * @group: a string literal of [a-z0-9]; the tracepoint names get "G<group>"
 */
#define EH_DEFINE_PROVIDER_GROUP(sym, name, group)                             \
	EH__DEFINE_PROVIDER(sym, name, "G" group)

#define EH__DEFINE_PROVIDER(sym, name, options)                                \
	EH_DECLARE_PROVIDER(sym);                                              \
	EH__STATIC_ASSERT(sizeof(name "_LffKffffffffffffffff" options) <=      \
				  EH_NAME_MAX,                                 \
			  "provider name (with group) too long: tracepoint "   \
			  "names must be under 256 characters");               \
	struct eh_provider sym = { name, options, 0 }

/**
 * EH_REGISTER(sym) - register a provider and every event written with it
 * @sym: the provider
 *
 * Call once before writing (events of an unregistered provider are never
 * enabled). Thread-safe.
 *
 * Return: 0, or a positive errno saying why user_events cannot be used:
 * usually ignored, as the program works the same without tracing.
 */
#define EH_REGISTER(sym)                                                       \
	eh_provider_register(&(sym), EH__CAT(__start_eh_tp_, sym),             \
			     EH__CAT(__stop_eh_tp_, sym))

/**
 * EH_UNREGISTER(sym) - unregister a provider
 * @sym: the provider
 *
 * Required before unloading a shared library that registered @sym.
 */
#define EH_UNREGISTER(sym)                                                     \
	eh_provider_unregister(&(sym), EH__CAT(__start_eh_tp_, sym),           \
			       EH__CAT(__stop_eh_tp_, sym))

/**
 * EH_ENABLED(sym, level, keyword) - would an event be recorded now?
 * @sym: the provider
 * @level: a constant level
 * @keyword: a constant keyword
 *
 * Registers (with the provider) a tracepoint of that level and keyword
 * that is never written. Use it to skip costly preparation of fields.
 *
 * Return: nonzero if a consumer has "<provider>_L<level>K<keyword>"
 * enabled.
 */
#define EH_ENABLED(sym, level, keyword)                                        \
	__extension__({                                                        \
		EH__CHECK_PROVIDER(sym);                                       \
		EH__CHECK_CONST(level, "EH_ENABLED: level must be constant");  \
		EH__CHECK_CONST(keyword,                                       \
				"EH_ENABLED: keyword must be constant");       \
		static struct eh_tracepoint eh__etp =                          \
			EH_TRACEPOINT_INIT((level), (keyword));                \
		EH__TP_PTR(sym, eh__etp);                                      \
		eh_tracepoint_enabled(&eh__etp);                               \
	})

/*
 * Writing
 */

/**
 * EH_WRITE(sym, name, args...) - write an event if anyone listens
 * @sym: the provider
 * @name: event name, a string literal
 * @args: up to 99 attributes (EH_LEVEL(), EH_KEYWORD(), EH_OPCODE(),
 *	EH_ID_VERSION(), EH_EVENT_TAG()) and fields (EH_INT32() ...), in any
 *	order; fields are laid out in the order given
 *
 * Can be thought of as:
 *	static struct eh_tracepoint tp;            // "<provider>_L<l>K<k>"
 *	static const metadata = { name, field declarations... };
 *	(enabled(&tp) ? write(&tp, header, metadata, field values...) : EBADF)
 *
 * Return: 0 or a positive errno (EBADF when not enabled).
 */
#define EH_WRITE(sym, name, ...) EH__WRITE(sym, name, 0, 0, __VA_ARGS__)

/**
 * EH_WRITE_ACTIVITY(sym, name, activity_id, related_id, args...)
 * @sym: the provider
 * @name: event name
 * @activity_id: pointer to the 16-byte id of the activity, or NULL
 * @related_id: pointer to the 16-byte id of the parent activity (with
 *	EH_OPCODE(EH_OPCODE_ACTIVITY_START)) or of a related one, or NULL
 * @args: as for EH_WRITE()
 *
 * An activity is started by an event with EH_OPCODE_ACTIVITY_START, goes
 * on with events carrying its id and ends with EH_OPCODE_ACTIVITY_STOP.
 * The ids are the caller's (random UUIDs are usual).
 */
#define EH_WRITE_ACTIVITY(sym, name, activity_id, related_id, ...)             \
	EH__WRITE(sym, name, activity_id, related_id, __VA_ARGS__)

/* Event attributes. */
#define EH_LEVEL(level) (A, LEVEL, level, _)
#define EH_KEYWORD(keyword) (A, KEYWORD, keyword, _)
#define EH_OPCODE(opcode) (A, OPCODE, opcode, _)
#define EH_ID_VERSION(id, version) (A, IDVER, id, version)
#define EH_EVENT_TAG(tag) (A, ETAG, tag, _)

/*
 * Fields. Each takes a name (string literal) first and an optional 16-bit
 * field tag last. Arrays take a pointer and a count: _ARRAY counts are
 * sent with the data (0..65535), _FIXED_ARRAY counts are constants in the
 * metadata (1..65535).
 *
 *	EH_INT32("name", value [, tag])
 *	EH_INT32_ARRAY("name", pointer, count [, tag])
 *	EH_INT32_FIXED_ARRAY("name", pointer, constant [, tag])
 */
#define EH_INT8(...) EH__N1(EF, EH_ENC_VALUE8, EH_FMT_SIGNED_INT, SCALAR, int8_t, __VA_ARGS__)
#define EH_UINT8(...) EH__N1(E, EH_ENC_VALUE8, 0, SCALAR, uint8_t, __VA_ARGS__)
#define EH_INT16(...) EH__N1(EF, EH_ENC_VALUE16, EH_FMT_SIGNED_INT, SCALAR, int16_t, __VA_ARGS__)
#define EH_UINT16(...) EH__N1(E, EH_ENC_VALUE16, 0, SCALAR, uint16_t, __VA_ARGS__)
#define EH_INT32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_SIGNED_INT, SCALAR, int32_t, __VA_ARGS__)
#define EH_UINT32(...) EH__N1(E, EH_ENC_VALUE32, 0, SCALAR, uint32_t, __VA_ARGS__)
#define EH_INT64(...) EH__N1(EF, EH_ENC_VALUE64, EH_FMT_SIGNED_INT, SCALAR, int64_t, __VA_ARGS__)
#define EH_UINT64(...) EH__N1(E, EH_ENC_VALUE64, 0, SCALAR, uint64_t, __VA_ARGS__)
#define EH_INTPTR(...) EH__N1(EF, EH_ENC_VALUE_PTR, EH_FMT_SIGNED_INT, SCALAR, intptr_t, __VA_ARGS__)
#define EH_UINTPTR(...) EH__N1(E, EH_ENC_VALUE_PTR, 0, SCALAR, uintptr_t, __VA_ARGS__)
#define EH_LONG(...) EH__N1(EF, EH_ENC_VALUE_LONG, EH_FMT_SIGNED_INT, SCALAR, long, __VA_ARGS__)
#define EH_ULONG(...) EH__N1(E, EH_ENC_VALUE_LONG, 0, SCALAR, unsigned long, __VA_ARGS__)
#define EH_HEXINT8(...) EH__N1(EF, EH_ENC_VALUE8, EH_FMT_HEX_INT, SCALAR, int8_t, __VA_ARGS__)
#define EH_HEXUINT8(...) EH__N1(EF, EH_ENC_VALUE8, EH_FMT_HEX_INT, SCALAR, uint8_t, __VA_ARGS__)
#define EH_HEXINT16(...) EH__N1(EF, EH_ENC_VALUE16, EH_FMT_HEX_INT, SCALAR, int16_t, __VA_ARGS__)
#define EH_HEXUINT16(...) EH__N1(EF, EH_ENC_VALUE16, EH_FMT_HEX_INT, SCALAR, uint16_t, __VA_ARGS__)
#define EH_HEXINT32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_HEX_INT, SCALAR, int32_t, __VA_ARGS__)
#define EH_HEXUINT32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_HEX_INT, SCALAR, uint32_t, __VA_ARGS__)
#define EH_HEXINT64(...) EH__N1(EF, EH_ENC_VALUE64, EH_FMT_HEX_INT, SCALAR, int64_t, __VA_ARGS__)
#define EH_HEXUINT64(...) EH__N1(EF, EH_ENC_VALUE64, EH_FMT_HEX_INT, SCALAR, uint64_t, __VA_ARGS__)
#define EH_HEXINTPTR(...) EH__N1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, intptr_t, __VA_ARGS__)
#define EH_HEXUINTPTR(...) EH__N1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, uintptr_t, __VA_ARGS__)
#define EH_HEXLONG(...) EH__N1(EF, EH_ENC_VALUE_LONG, EH_FMT_HEX_INT, SCALAR, long, __VA_ARGS__)
#define EH_HEXULONG(...) EH__N1(EF, EH_ENC_VALUE_LONG, EH_FMT_HEX_INT, SCALAR, unsigned long, __VA_ARGS__)
#define EH_FLOAT32(...) EH__N1(EF, EH_ENC_VALUE_FLOAT, EH_FMT_FLOAT, SCALAR, float, __VA_ARGS__)
#define EH_FLOAT64(...) EH__N1(EF, EH_ENC_VALUE_DOUBLE, EH_FMT_FLOAT, SCALAR, double, __VA_ARGS__)
#define EH_BOOL8(...) EH__N1(EF, EH_ENC_VALUE8, EH_FMT_BOOLEAN, SCALAR, uint8_t, __VA_ARGS__)
#define EH_BOOL32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_BOOLEAN, SCALAR, int32_t, __VA_ARGS__)
#define EH_CHAR8(...) EH__N1(EF, EH_ENC_VALUE8, EH_FMT_STRING8, SCALAR, char, __VA_ARGS__)
#define EH_CHAR16(...) EH__N1(EF, EH_ENC_VALUE16, EH_FMT_STRING_UTF, SCALAR, eh_char16_t, __VA_ARGS__)
#define EH_CHAR32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_STRING_UTF, SCALAR, eh_char32_t, __VA_ARGS__)
#define EH_WCHAR(...) EH__N1(EF, EH_ENC_VALUE_WCHAR, EH_FMT_STRING_UTF, SCALAR, wchar_t, __VA_ARGS__)
#define EH_POINTER(...) EH__N1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, eh__cptr, __VA_ARGS__)
#define EH_PID(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_PID, SCALAR, int32_t, __VA_ARGS__)
#define EH_PORT(...) EH__N1(EF, EH_ENC_VALUE16, EH_FMT_PORT, SCALAR, uint16_t, __VA_ARGS__)
#define EH_ERRNO(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_ERRNO, SCALAR, int32_t, __VA_ARGS__)
#define EH_TIME32(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_TIME, SCALAR, int32_t, __VA_ARGS__)
#define EH_TIME64(...) EH__N1(EF, EH_ENC_VALUE64, EH_FMT_TIME, SCALAR, int64_t, __VA_ARGS__)

#define EH_INT8_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int8_t, __VA_ARGS__)
#define EH_UINT8_ARRAY(...) EH__N2(E, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint8_t, __VA_ARGS__)
#define EH_INT16_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int16_t, __VA_ARGS__)
#define EH_UINT16_ARRAY(...) EH__N2(E, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint16_t, __VA_ARGS__)
#define EH_INT32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_UINT32_ARRAY(...) EH__N2(E, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint32_t, __VA_ARGS__)
#define EH_INT64_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int64_t, __VA_ARGS__)
#define EH_UINT64_ARRAY(...) EH__N2(E, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint64_t, __VA_ARGS__)
#define EH_INTPTR_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, intptr_t, __VA_ARGS__)
#define EH_UINTPTR_ARRAY(...) EH__N2(E, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uintptr_t, __VA_ARGS__)
#define EH_LONG_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, long, __VA_ARGS__)
#define EH_ULONG_ARRAY(...) EH__N2(E, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, unsigned long, __VA_ARGS__)
#define EH_HEXINT8_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int8_t, __VA_ARGS__)
#define EH_HEXUINT8_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint8_t, __VA_ARGS__)
#define EH_HEXINT16_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int16_t, __VA_ARGS__)
#define EH_HEXUINT16_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint16_t, __VA_ARGS__)
#define EH_HEXINT32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_HEXUINT32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint32_t, __VA_ARGS__)
#define EH_HEXINT64_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int64_t, __VA_ARGS__)
#define EH_HEXUINT64_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint64_t, __VA_ARGS__)
#define EH_HEXINTPTR_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, intptr_t, __VA_ARGS__)
#define EH_HEXUINTPTR_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uintptr_t, __VA_ARGS__)
#define EH_HEXLONG_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, long, __VA_ARGS__)
#define EH_HEXULONG_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, unsigned long, __VA_ARGS__)
#define EH_FLOAT32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_FLOAT | EH_ENC_VARRAY_FLAG, EH_FMT_FLOAT, OK, VARRAY, float, __VA_ARGS__)
#define EH_FLOAT64_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_DOUBLE | EH_ENC_VARRAY_FLAG, EH_FMT_FLOAT, OK, VARRAY, double, __VA_ARGS__)
#define EH_BOOL8_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_BOOLEAN, OK, VARRAY, uint8_t, __VA_ARGS__)
#define EH_BOOL32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_BOOLEAN, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_CHAR8_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING8, OK, VARRAY, char, __VA_ARGS__)
#define EH_CHAR16_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, eh_char16_t, __VA_ARGS__)
#define EH_CHAR32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, eh_char32_t, __VA_ARGS__)
#define EH_WCHAR_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_WCHAR | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, wchar_t, __VA_ARGS__)
#define EH_POINTER_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, eh__cptr, __VA_ARGS__)
#define EH_PID_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_PID, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_PORT_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_PORT, OK, VARRAY, uint16_t, __VA_ARGS__)
#define EH_ERRNO_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_ERRNO, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_TIME32_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_TIME, OK, VARRAY, int32_t, __VA_ARGS__)
#define EH_TIME64_ARRAY(...) EH__N2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_TIME, OK, VARRAY, int64_t, __VA_ARGS__)

#define EH_INT8_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int8_t, __VA_ARGS__)
#define EH_UINT8_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define EH_INT16_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int16_t, __VA_ARGS__)
#define EH_UINT16_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define EH_INT32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_UINT32_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint32_t, __VA_ARGS__)
#define EH_INT64_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int64_t, __VA_ARGS__)
#define EH_UINT64_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint64_t, __VA_ARGS__)
#define EH_INTPTR_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, intptr_t, __VA_ARGS__)
#define EH_UINTPTR_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uintptr_t, __VA_ARGS__)
#define EH_LONG_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, long, __VA_ARGS__)
#define EH_ULONG_FIXED_ARRAY(...) EH__N2(E, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, unsigned long, __VA_ARGS__)
#define EH_HEXINT8_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int8_t, __VA_ARGS__)
#define EH_HEXUINT8_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define EH_HEXINT16_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int16_t, __VA_ARGS__)
#define EH_HEXUINT16_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define EH_HEXINT32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_HEXUINT32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint32_t, __VA_ARGS__)
#define EH_HEXINT64_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int64_t, __VA_ARGS__)
#define EH_HEXUINT64_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint64_t, __VA_ARGS__)
#define EH_HEXINTPTR_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, intptr_t, __VA_ARGS__)
#define EH_HEXUINTPTR_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uintptr_t, __VA_ARGS__)
#define EH_HEXLONG_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, long, __VA_ARGS__)
#define EH_HEXULONG_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, unsigned long, __VA_ARGS__)
#define EH_FLOAT32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_FLOAT | EH_ENC_CARRAY_FLAG, EH_FMT_FLOAT, CARRAY, CARRAY, float, __VA_ARGS__)
#define EH_FLOAT64_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_DOUBLE | EH_ENC_CARRAY_FLAG, EH_FMT_FLOAT, CARRAY, CARRAY, double, __VA_ARGS__)
#define EH_BOOL8_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_BOOLEAN, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define EH_BOOL32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_BOOLEAN, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_CHAR8_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING8, CARRAY, CARRAY, char, __VA_ARGS__)
#define EH_CHAR16_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, eh_char16_t, __VA_ARGS__)
#define EH_CHAR32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, eh_char32_t, __VA_ARGS__)
#define EH_WCHAR_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_WCHAR | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, wchar_t, __VA_ARGS__)
#define EH_POINTER_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, eh__cptr, __VA_ARGS__)
#define EH_PID_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_PID, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_PORT_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_PORT, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define EH_ERRNO_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_ERRNO, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_TIME32_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_TIME, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define EH_TIME64_FIXED_ARRAY(...) EH__N2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_TIME, CARRAY, CARRAY, int64_t, __VA_ARGS__)

/* Strings: NUL-terminated (NULL is sent as "") and counted (count units). */
#define EH_STRING8(...) EH__N1(EF, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING8, ZSTR, char, __VA_ARGS__)
#define EH_STRING_UTF8(...) EH__N1(E, EH_ENC_ZSTRING_CHAR8, 0, ZSTR, char, __VA_ARGS__)
#define EH_STRING16(...) EH__N1(E, EH_ENC_ZSTRING_CHAR16, 0, ZSTR, eh_char16_t, __VA_ARGS__)
#define EH_STRING32(...) EH__N1(E, EH_ENC_ZSTRING_CHAR32, 0, ZSTR, eh_char32_t, __VA_ARGS__)
#define EH_WSTRING(...) EH__N1(E, EH_ENC_ZSTRING_WCHAR, 0, ZSTR, wchar_t, __VA_ARGS__)
#define EH_STRING_JSON(...) EH__N1(EF, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING_JSON, ZSTR, char, __VA_ARGS__)
#define EH_STRING_XML(...) EH__N1(EF, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING_XML, ZSTR, char, __VA_ARGS__)
#define EH_COUNTED_STRING8(...) EH__N2(EF, , EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING8, OK, VARRAY, char, __VA_ARGS__)
#define EH_COUNTED_STRING_UTF8(...) EH__N2(E, , EH_ENC_STRING_LENGTH16_CHAR8, 0, OK, VARRAY, char, __VA_ARGS__)
#define EH_COUNTED_STRING16(...) EH__N2(E, , EH_ENC_STRING_LENGTH16_CHAR16, 0, OK, VARRAY, eh_char16_t, __VA_ARGS__)
#define EH_COUNTED_STRING32(...) EH__N2(E, , EH_ENC_STRING_LENGTH16_CHAR32, 0, OK, VARRAY, eh_char32_t, __VA_ARGS__)
#define EH_COUNTED_WSTRING(...) EH__N2(E, , EH_ENC_STRING_LENGTH16_WCHAR, 0, OK, VARRAY, wchar_t, __VA_ARGS__)

/* Bytes, shown as hex: EH_BINARY("name", pointer, size [, tag]). */
#define EH_BINARY(...) EH__N2(E, , EH_ENC_BINARY_LENGTH16_CHAR8, 0, OK, CBYTES, _, __VA_ARGS__)

/* 16 bytes at pointer: GUID/UUID in RFC 4122 (big-endian) byte order. */
#define EH_GUID(...) EH__N1(EF, EH_ENC_VALUE128, EH_FMT_UUID, BYTES16, _, __VA_ARGS__)
/* IPv4 address, a uint32_t in network byte order. */
#define EH_IPV4(...) EH__N1(EF, EH_ENC_VALUE32, EH_FMT_IP_ADDRESS, SCALAR, uint32_t, __VA_ARGS__)
/* IPv6 address, 16 bytes at pointer. */
#define EH_IPV6(...) EH__N1(EF, EH_ENC_VALUE128, EH_FMT_IP_ADDRESS, BYTES16, _, __VA_ARGS__)

/**
 * EH_STRUCT(name, count [, tag]) - group the next @count fields (1..127)
 * under @name. With EH_STRUCT_ARRAY(name, count, elements [, tag]) they
 * form an array of @elements structs: the @count field macros that follow
 * must then be EH_PACKED_META()s, and the values are given with
 * EH_PACKED_DATA(), element after element.
 */
#define EH_STRUCT(...) EH__CAT(EH__NSTRUCT_, EH__NARGS(__VA_ARGS__))(, __VA_ARGS__)
#define EH__NSTRUCT_2(x, name, n) (F, EF, name, EH_ENC_STRUCT, n, 0, 0, STRUCT, NONE, _, _, _)
#define EH__NSTRUCT_3(x, name, n, t) (F, EFT, name, EH_ENC_STRUCT, n, t, 0, STRUCT, NONE, _, _, _)
#define EH_STRUCT_ARRAY(...) EH__CAT(EH__NSTRUCTA_, EH__NARGS(__VA_ARGS__))(, __VA_ARGS__)
#define EH__NSTRUCTA_3(x, name, n, e) (F, EF, name, EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, n, 0, 0, STRUCT, COUNT, _, _, e)
#define EH__NSTRUCTA_4(x, name, n, e, t) (F, EFT, name, EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, n, t, 0, STRUCT, COUNT, _, _, e)

/*
 * Escape hatch for layouts the macros above cannot say (arrays of strings,
 * arrays of structs): declare fields and supply their bytes yourself, in
 * the event's byte order, exactly as the format wants them.
 *
 *	EH_PACKED_FIELD("name", pointer, size, encoding, format [, tag])
 *		one field and its bytes
 *	EH_PACKED_META("name", encoding, format [, tag])
 *		a declaration only
 * Both always write a format byte (EH_FMT_DEFAULT: the encoding's own).
 *	EH_PACKED_DATA(pointer, size)
 *		bytes only
 */
#define EH_PACKED_FIELD(...) EH__CAT(EH__NPF_, EH__NARGS(__VA_ARGS__))(, __VA_ARGS__)
#define EH__NPF_5(x, name, p, size, enc, fmt) (F, EF, name, enc, fmt, 0, 0, OK, BYTES, p, size, _)
#define EH__NPF_6(x, name, p, size, enc, fmt, t) (F, EFT, name, enc, fmt, t, 0, OK, BYTES, p, size, _)
#define EH_PACKED_META(...) EH__CAT(EH__NPM_, EH__NARGS(__VA_ARGS__))(, __VA_ARGS__)
#define EH__NPM_3(x, name, enc, fmt) (F, EF, name, enc, fmt, 0, 0, OK, NONE, _, _, _)
#define EH__NPM_4(x, name, enc, fmt, t) (F, EFT, name, enc, fmt, t, 0, OK, NONE, _, _, _)
#define EH_PACKED_DATA(p, size) (P, p, size, _)

#ifdef __cplusplus
/**
 * EH_VALUE(name, value [, tag]) - a field whose kind follows the C++ type
 * of @value: bool, char (Latin-1), char16_t, char32_t, wchar_t, the signed
 * and unsigned integer types, float, double, pointers (hex), and
 * NUL-terminated strings of char (Latin-1), char16_t, char32_t, wchar_t.
 * C++ only. Another type fails to compile ("incomplete type
 * eh__cpp::value_traits<T>").
 */
#define EH_VALUE(...) EH__CAT(EH__NVALUE_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__NVALUE_2(name, v) (F, V, name, 0, 0, 0, 0, OK, VALUE, _, v, 0)
#define EH__NVALUE_3(name, v, t) (F, V, name, 0, 0, t, 0, OK, VALUE, _, v, 1)
#endif

/*
 * Internals. An argument of a write macro is a parenthesised tuple:
 *	(A, which, v1, v2)     an event attribute
 *	(F, shape, name, encoding, format, tag, count, check, data, d1, d2, d3)
 *	                       a field; shape says which metadata bytes follow
 *	                       its name: E encoding, F format, T tag, C count
 *	(P, pointer, size, _)  payload bytes without metadata
 * Each expansion step ("mode") maps every tuple through EH__APPLY to a
 * macro named <mode><kind>. An empty argument (a write with no fields in
 * strict ISO mode) maps to <mode>EH__HEAD, which expands to nothing.
 */
#define EH__APPLY(mode, i, arg) EH__APPLY_(EH__CAT(mode, EH__HEAD arg), i, EH__TAIL arg)
#define EH__APPLY_(m, i, ...) m(i, __VA_ARGS__)

/* Native field front ends: name first, optional tag last. */
#define EH__N1(base, enc, fmt, dk, ctype, ...) EH__CAT(EH__N1_, EH__NARGS(__VA_ARGS__))(base, enc, fmt, dk, ctype, __VA_ARGS__)
#define EH__N1_2(base, enc, fmt, dk, ctype, name, v) (F, base, name, enc, fmt, 0, 0, OK, dk, ctype, v, _)
#define EH__N1_3(base, enc, fmt, dk, ctype, name, v, t) (F, EFT, name, enc, fmt, t, 0, OK, dk, ctype, v, _)
#define EH__N2(base, sfx, enc, fmt, chk, dk, ctype, ...) EH__CAT(EH__N2_, EH__NARGS(__VA_ARGS__))(base, sfx, enc, fmt, chk, dk, ctype, __VA_ARGS__)
#define EH__N2_3(base, sfx, enc, fmt, chk, dk, ctype, name, p, n) (F, EH__CAT(base, sfx), name, enc, fmt, 0, n, chk, dk, ctype, p, n)
#define EH__N2_4(base, sfx, enc, fmt, chk, dk, ctype, name, p, n, t) (F, EH__CAT(EFT, sfx), name, enc, fmt, t, n, chk, dk, ctype, p, n)

#ifdef __cplusplus
#define EH__CHECK_PROVIDER(sym)                                                \
	static_assert(std::is_same<std::decay<decltype(sym)>::type,            \
				   struct eh_provider>::value,                 \
		      "not a provider: define it with EH_DEFINE_PROVIDER")
#else
#define EH__CHECK_PROVIDER(sym)                                                \
	EH__STATIC_ASSERT(__builtin_types_compatible_p(__typeof__(sym),        \
						       struct eh_provider),    \
			  "not a provider: define it with EH_DEFINE_PROVIDER")
#endif
#define EH__CHECK_CONST(e, msg) EH__STATIC_ASSERT(__builtin_constant_p(e), msg)

/* This call site's tracepoint, listed in the provider's section. */
#define EH__TP_PTR(sym, tp)                                                    \
	static struct eh_tracepoint *const EH__CAT(tp, _ptr)                   \
		__attribute__((section("eh_tp_" EH__STR_(sym)), used)) = &tp

/* Attribute values: "(default) * 0 + (v1) * 0 + (v2)" = the last one. */
#define EH__ATTR(mode, dflt, ...) ((dflt) EH__FOREACH(mode, (A, NONE, _, _), __VA_ARGS__))
#define EH__LEVEL_OF(...) EH__ATTR(EH__M_LEVEL, 5, __VA_ARGS__)
#define EH__KEYWORD_OF(...) EH__ATTR(EH__M_KEYWORD, (uint64_t)0, __VA_ARGS__)
#define EH__OPCODE_OF(...) EH__ATTR(EH__M_OPCODE, 0, __VA_ARGS__)
#define EH__ID_OF(...) EH__ATTR(EH__M_ID, 0, __VA_ARGS__)
#define EH__VERSION_OF(...) EH__ATTR(EH__M_VERSION, 0, __VA_ARGS__)
#define EH__ETAG_OF(...) EH__ATTR(EH__M_ETAG, 0, __VA_ARGS__)

#define EH__M_LEVEL(i, arg) EH__APPLY(EH__LEVEL_, i, arg)
#define EH__LEVEL_EH__HEAD(i, ...)
#define EH__LEVEL_F(i, ...)
#define EH__LEVEL_P(i, ...)
#define EH__LEVEL_A(i, which, a, b) EH__CAT(EH__LEVEL_A_, which)(a)
#define EH__LEVEL_A_LEVEL(a) * 0 + (a)
#define EH__LEVEL_A_KEYWORD(a)
#define EH__LEVEL_A_OPCODE(a)
#define EH__LEVEL_A_IDVER(a)
#define EH__LEVEL_A_ETAG(a)
#define EH__LEVEL_A_NONE(a)

#define EH__M_KEYWORD(i, arg) EH__APPLY(EH__KEYWORD_, i, arg)
#define EH__KEYWORD_EH__HEAD(i, ...)
#define EH__KEYWORD_F(i, ...)
#define EH__KEYWORD_P(i, ...)
#define EH__KEYWORD_A(i, which, a, b) EH__CAT(EH__KEYWORD_A_, which)(a)
#define EH__KEYWORD_A_LEVEL(a)
#define EH__KEYWORD_A_KEYWORD(a) | (uint64_t)(a)
#define EH__KEYWORD_A_OPCODE(a)
#define EH__KEYWORD_A_IDVER(a)
#define EH__KEYWORD_A_ETAG(a)
#define EH__KEYWORD_A_NONE(a)

#define EH__M_OPCODE(i, arg) EH__APPLY(EH__OPCODE_, i, arg)
#define EH__OPCODE_EH__HEAD(i, ...)
#define EH__OPCODE_F(i, ...)
#define EH__OPCODE_P(i, ...)
#define EH__OPCODE_A(i, which, a, b) EH__CAT(EH__OPCODE_A_, which)(a)
#define EH__OPCODE_A_LEVEL(a)
#define EH__OPCODE_A_KEYWORD(a)
#define EH__OPCODE_A_OPCODE(a) * 0 + (a)
#define EH__OPCODE_A_IDVER(a)
#define EH__OPCODE_A_ETAG(a)
#define EH__OPCODE_A_NONE(a)

#define EH__M_ID(i, arg) EH__APPLY(EH__ID_, i, arg)
#define EH__ID_EH__HEAD(i, ...)
#define EH__ID_F(i, ...)
#define EH__ID_P(i, ...)
#define EH__ID_A(i, which, a, b) EH__CAT(EH__ID_A_, which)(a)
#define EH__ID_A_LEVEL(a)
#define EH__ID_A_KEYWORD(a)
#define EH__ID_A_OPCODE(a)
#define EH__ID_A_IDVER(a) * 0 + (a)
#define EH__ID_A_ETAG(a)
#define EH__ID_A_NONE(a)

#define EH__M_VERSION(i, arg) EH__APPLY(EH__VERSION_, i, arg)
#define EH__VERSION_EH__HEAD(i, ...)
#define EH__VERSION_F(i, ...)
#define EH__VERSION_P(i, ...)
#define EH__VERSION_A(i, which, a, b) EH__CAT(EH__VERSION_A_, which)(b)
#define EH__VERSION_A_LEVEL(b)
#define EH__VERSION_A_KEYWORD(b)
#define EH__VERSION_A_OPCODE(b)
#define EH__VERSION_A_IDVER(b) * 0 + (b)
#define EH__VERSION_A_ETAG(b)
#define EH__VERSION_A_NONE(b)

#define EH__M_ETAG(i, arg) EH__APPLY(EH__ETAG_, i, arg)
#define EH__ETAG_EH__HEAD(i, ...)
#define EH__ETAG_F(i, ...)
#define EH__ETAG_P(i, ...)
#define EH__ETAG_A(i, which, a, b) EH__CAT(EH__ETAG_A_, which)(a)
#define EH__ETAG_A_LEVEL(a)
#define EH__ETAG_A_KEYWORD(a)
#define EH__ETAG_A_OPCODE(a)
#define EH__ETAG_A_IDVER(a)
#define EH__ETAG_A_ETAG(a) * 0 + (a)
#define EH__ETAG_A_NONE(a)

/* Compile-time checks of each argument. */
#define EH__M_CHECK(i, arg) EH__APPLY(EH__CHECK_, i, arg)
#define EH__CHECK_EH__HEAD(i, ...)
#define EH__CHECK_P(i, ...)
#define EH__CHECK_A(i, which, a, b) EH__CAT(EH__CHECK_A_, which)(a, b)
#define EH__CHECK_A_LEVEL(a, b)                                                \
	EH__CHECK_CONST(a, "event level must be a compile-time constant");    \
	EH__STATIC_ASSERT((__builtin_constant_p(a) ? (a) : 1) >= 1 &&          \
				  (__builtin_constant_p(a) ? (a) : 1) <= 255,  \
			  "event level must be 1..255");
#define EH__CHECK_A_KEYWORD(a, b)                                              \
	EH__CHECK_CONST(a, "event keyword must be a compile-time constant");
#define EH__CHECK_A_OPCODE(a, b)                                               \
	EH__CHECK_CONST(a, "event opcode must be a compile-time constant");
#define EH__CHECK_A_IDVER(a, b)                                                \
	EH__CHECK_CONST(a, "event id must be a compile-time constant");       \
	EH__CHECK_CONST(b, "event version must be a compile-time constant");
#define EH__CHECK_A_ETAG(a, b)                                                 \
	EH__CHECK_CONST(a, "event tag must be a compile-time constant");
#define EH__CHECK_A_NONE(a, b)
#define EH__CHECK_F(i, shape, name, enc, fmt, tag, count, chk, ...) EH__CAT(EH__CHECK_F_, chk)(fmt, count)
#define EH__CHECK_F_OK(fmt, count)
#define EH__CHECK_F_STRUCT(fmt, count)                                         \
	EH__STATIC_ASSERT((fmt) >= 1 && (fmt) <= 127,                          \
			  "struct field count must be a constant 1..127");
#define EH__CHECK_F_CARRAY(fmt, count)                                         \
	EH__STATIC_ASSERT((count) >= 1 && (count) <= 65535,                    \
			  "fixed array count must be a constant 1..65535");

/* Metadata: member declarations of the packed metadata struct. */
#define EH__M_MDECL(i, arg) EH__APPLY(EH__MDECL_, i, arg)
#define EH__MDECL_EH__HEAD(i, ...)
#define EH__MDECL_A(i, ...)
#define EH__MDECL_P(i, ...)
#define EH__MDECL_F(i, shape, name, enc, fmt, tag, count, chk, dk, a, b, c) char EH__CAT(eh__n, i)[sizeof(name)]; EH__CAT(EH__MDECL_, shape)(i, b, c)
#define EH__MDECL_E(i, v, t) uint8_t EH__CAT(eh__e, i);
#define EH__MDECL_EF(i, v, t) uint8_t EH__CAT(eh__e, i); uint8_t EH__CAT(eh__f, i);
#define EH__MDECL_EFT(i, v, t) EH__MDECL_EF(i, v, t) uint16_t EH__CAT(eh__t, i);
#define EH__MDECL_EC(i, v, t) EH__MDECL_E(i, v, t) uint16_t EH__CAT(eh__c, i);
#define EH__MDECL_EFC(i, v, t) EH__MDECL_EF(i, v, t) uint16_t EH__CAT(eh__c, i);
#define EH__MDECL_EFTC(i, v, t) EH__MDECL_EFT(i, v, t) uint16_t EH__CAT(eh__c, i);
#define EH__MDECL_V(i, v, t) typename eh__cpp::value_meta<EH__VTYPE(v), t>::type EH__CAT(eh__e, i);

/* Metadata: initialisers of those members. */
#define EH__M_MINIT(i, arg) EH__APPLY(EH__MINIT_, i, arg)
#define EH__MINIT_EH__HEAD(i, ...)
#define EH__MINIT_A(i, ...)
#define EH__MINIT_P(i, ...)
#define EH__MINIT_F(i, shape, name, enc, fmt, tag, count, chk, dk, a, b, c) , name EH__CAT(EH__MINIT_, shape)(enc, fmt, tag, count, b, c)
#define EH__MINIT_E(enc, fmt, tag, count, v, t) , (uint8_t)(enc)
#define EH__MINIT_EF(enc, fmt, tag, count, v, t) , (uint8_t)((enc) | EH_ENC_CHAIN_FLAG), (uint8_t)(fmt)
#define EH__MINIT_EFT(enc, fmt, tag, count, v, t)                                    \
	, (uint8_t)((enc) | EH_ENC_CHAIN_FLAG),                                \
	(uint8_t)((fmt) | EH_FMT_CHAIN_FLAG), (uint16_t)(tag)
#define EH__MINIT_EC(enc, fmt, tag, count, v, t) EH__MINIT_E(enc, fmt, tag, count, v, t), (uint16_t)(count)
#define EH__MINIT_EFC(enc, fmt, tag, count, v, t) EH__MINIT_EF(enc, fmt, tag, count, v, t), (uint16_t)(count)
#define EH__MINIT_EFTC(enc, fmt, tag, count, v, t) EH__MINIT_EFT(enc, fmt, tag, count, v, t), (uint16_t)(count)
#define EH__MINIT_V(enc, fmt, tag, count, v, t) , eh__cpp::value_meta<EH__VTYPE(v), t>::make(tag)

/* Values: evaluate each argument once, into locals. */
#define EH__M_VALS(i, arg) EH__APPLY(EH__VALS_, i, arg)
#define EH__VALS_EH__HEAD(i, ...)
#define EH__VALS_A(i, ...)
#define EH__VALS_P(i, p, size, x) EH__VALS_BYTES(i, p, size, x)
#define EH__VALS_F(i, shape, name, enc, fmt, tag, count, chk, dk, a, b, c) EH__CAT(EH__VALS_, dk)(i, a, b, c)
#define EH__VALS_NONE(i, a, b, c)
#define EH__VALS_SCALAR(i, ctype, v, x) ctype EH__CAT(eh__v, i) = (ctype)(v);
#define EH__VALS_ZSTR(i, ctype, p, x)                                          \
	const ctype *EH__CAT(eh__t, i) = (p);                                  \
	const void *EH__CAT(eh__p, i) = EH__CAT(eh__t, i);                     \
	size_t EH__CAT(eh__z, i) =                                             \
		eh__zstr_bytes(&EH__CAT(eh__p, i), sizeof(ctype));
#define EH__VALS_VARRAY(i, ctype, p, n)                                        \
	const ctype *EH__CAT(eh__t, i) = (p);                                  \
	uint16_t EH__CAT(eh__c, i) = eh__count16(n);
#define EH__VALS_CARRAY(i, ctype, p, n) const ctype *EH__CAT(eh__t, i) = (p);
#define EH__VALS_CBYTES(i, x, p, n)                                            \
	const void *EH__CAT(eh__t, i) = (p);                                   \
	uint16_t EH__CAT(eh__c, i) = eh__count16(n);
#define EH__VALS_BYTES(i, p, size, x)                                          \
	const void *EH__CAT(eh__t, i) = (p);                                   \
	size_t EH__CAT(eh__z, i) = (size);
#define EH__VALS_BYTES16(i, x, p, y) const void *EH__CAT(eh__t, i) = (p);
#define EH__VALS_COUNT(i, x, y, n) uint16_t EH__CAT(eh__c, i) = eh__count16(n);
#define EH__VALS_VALUE(i, x, v, t) const eh__cpp::value_data<EH__VTYPE(v)> EH__CAT(eh__v, i)(v);

/* Payload: one or two iovec initialisers per field. */
#define EH__M_IOV(i, arg) EH__APPLY(EH__IOV_, i, arg)
#define EH__IOV_EH__HEAD(i, ...)
#define EH__IOV_A(i, ...)
#define EH__IOV_P(i, p, size, x) EH__IOV_BYTES(i, p, size, x)
#define EH__IOV_F(i, shape, name, enc, fmt, tag, count, chk, dk, a, b, c) EH__CAT(EH__IOV_, dk)(i, a, b, c)
#define EH__IOV_NONE(i, a, b, c)
#define EH__IOV_SCALAR(i, ctype, v, x) , { (void *)&EH__CAT(eh__v, i), sizeof(EH__CAT(eh__v, i)) }
#define EH__IOV_ZSTR(i, ctype, p, x) , { (void *)EH__CAT(eh__p, i), EH__CAT(eh__z, i) }
#define EH__IOV_VARRAY(i, ctype, p, n)                                         \
	, { (void *)&EH__CAT(eh__c, i), 2 },                                   \
	{ (void *)EH__CAT(eh__t, i), EH__CAT(eh__c, i) * sizeof(ctype) }
#define EH__IOV_CARRAY(i, ctype, p, n) , { (void *)EH__CAT(eh__t, i), (size_t)(n) * sizeof(ctype) }
#define EH__IOV_CBYTES(i, x, p, n)                                             \
	, { (void *)&EH__CAT(eh__c, i), 2 },                                   \
	{ (void *)EH__CAT(eh__t, i), EH__CAT(eh__c, i) }
#define EH__IOV_BYTES(i, p, size, x) , { (void *)EH__CAT(eh__t, i), EH__CAT(eh__z, i) }
#define EH__IOV_BYTES16(i, x, p, y) , { (void *)EH__CAT(eh__t, i), 16 }
#define EH__IOV_COUNT(i, x, y, n) , { (void *)&EH__CAT(eh__c, i), 2 }
#define EH__IOV_VALUE(i, x, v, t) , EH__CAT(eh__v, i).iov()

#define EH__WRITE(sym, name, aid, rid, ...)                                    \
	__extension__({                                                        \
		EH__CHECK_PROVIDER(sym);                                       \
		EH__FOREACH(EH__M_CHECK, (A, NONE, _, _), __VA_ARGS__)         \
		static struct eh_tracepoint eh__tp = EH_TRACEPOINT_INIT(       \
			EH__LEVEL_OF(__VA_ARGS__), EH__KEYWORD_OF(__VA_ARGS__)); \
		EH__TP_PTR(sym, eh__tp);                                       \
		int eh__rc = EBADF;                                            \
		if (__builtin_expect(eh_tracepoint_enabled(&eh__tp), 0)) {     \
			struct __attribute__((packed)) eh__meta_t {            \
				struct eh_extension ext;                       \
				char name_[sizeof(name)];                      \
				EH__FOREACH(EH__M_MDECL, (A, NONE, _, _),      \
					    __VA_ARGS__)                       \
			};                                                     \
			static const struct eh__meta_t eh__meta = {            \
				{ (uint16_t)(sizeof(struct eh__meta_t) -       \
					     sizeof(struct eh_extension)),     \
				  EH_EXT_METADATA },                           \
				name EH__FOREACH(EH__M_MINIT, (A, NONE, _, _), \
						 __VA_ARGS__)                  \
			};                                                     \
			static const struct eh_header eh__hdr = {              \
				EH_FLAG_DEFAULT,                               \
				(uint8_t)EH__VERSION_OF(__VA_ARGS__),          \
				(uint16_t)EH__ID_OF(__VA_ARGS__),              \
				(uint16_t)EH__ETAG_OF(__VA_ARGS__),            \
				(uint8_t)EH__OPCODE_OF(__VA_ARGS__),           \
				(uint8_t)EH__LEVEL_OF(__VA_ARGS__)             \
			};                                                     \
			EH__FOREACH(EH__M_VALS, (A, NONE, _, _), __VA_ARGS__)  \
			struct iovec eh__iov[] = {                             \
				{ 0, 0 },                                      \
				{ (void *)&eh__meta, sizeof(eh__meta) }        \
				EH__FOREACH(EH__M_IOV, (A, NONE, _, _),        \
					    __VA_ARGS__)                       \
			};                                                     \
			eh__rc = eh__tracepoint_write(                         \
				&eh__tp, &eh__hdr, (aid), (rid), eh__iov,      \
				sizeof(eh__iov) / sizeof(eh__iov[0]));         \
		}                                                              \
		eh__rc;                                                        \
	})

#endif /* EVENTHEADER_EH_PROVIDER_H */
