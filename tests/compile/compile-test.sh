#!/bin/sh
# SPDX-License-Identifier: MIT
#
# compile-test.sh - header compile tests of libeventheader
#
# Every header compiles alone and together as gnu99, c11, c++11 and c++17
# with -Wall -Wextra -Werror, with $CC/$CXX and with gcc/g++ and
# clang/clang++ when installed. Small programs (two writes on one line,
# writes with no fields, every kind of field at -O0 and -O2, the maximum
# of 99 arguments) are built with -DEH_INTERCEPTOR and -Werror, run, and
# their records checked (and compared between configurations). Each
# misuse of the macros must fail to compile, in every mode, with an error
# that says what is wrong (the expected words are grepped).
#
# Environment (set by "make check"): CC, CXX, EH_SRCDIR, EH_BUILDDIR.
# Options: -v prints every diagnostic; -k keeps the scratch folder.
# Exit: 0 all passed, 1 a test failed, 77 no compiler (skipped).

set -u

verbose=0
keep=0
for arg in "$@"; do
	case $arg in
	-v) verbose=1 ;;
	-k) keep=1 ;;
	*) echo "usage: $0 [-v] [-k]" >&2; exit 2 ;;
	esac
done

LC_ALL=C
export LC_ALL

srcdir=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
incdir=$srcdir/libeventheader/include
ehdir=$incdir/eventheader
testdir=$srcdir/tests/compile
if [ ! -f "$ehdir/eventheader.h" ]; then
	echo "compile-test: no headers under $incdir" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-compile.XXXXXX") || exit 1
if [ "$keep" = 1 ]; then
	echo "compile-test: scratch folder $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi
trap 'exit 1' INT TERM HUP

passed=0
failed=0
failures=

pass()
{
	passed=$((passed + 1))
	echo "PASS: $1"
}

fail()
{
	failed=$((failed + 1))
	failures="$failures
  $1"
	echo "FAIL: $1"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		sed -n '1,25s/^/	| /p' "$2"
	fi
}

# --- compilers ------------------------------------------------------------

# Real path of a compiler command's program, to skip duplicates.
real_path()
{
	p=$(command -v "${1%% *}" 2>/dev/null) || return 1
	readlink -f "$p" 2>/dev/null || echo "$p"
}

c_compilers=
cxx_compilers=
seen=
add_compiler()	# kind command
{
	[ -n "$2" ] || return 0
	rp=$(real_path "$2") || return 0
	# clang++ is a link to clang: compare within one kind only.
	case " $seen " in *" $1:$rp "*) return 0 ;; esac
	# It must work at all: no error is blamed on a broken toolchain.
	if [ "$1" = c ]; then
		printf 'int main(void) { return 0; }\n' >"$tmp/probe.c"
		$2 -c "$tmp/probe.c" -o "$tmp/probe.o" >/dev/null 2>&1 || return 0
		c_compilers="$c_compilers|$2"
	else
		printf 'int main() { return 0; }\n' >"$tmp/probe.cc"
		$2 -c "$tmp/probe.cc" -o "$tmp/probe.o" >/dev/null 2>&1 || return 0
		cxx_compilers="$cxx_compilers|$2"
	fi
	seen="$seen $1:$rp"
}
add_compiler c "${CC:-cc}"
add_compiler c gcc
add_compiler c clang
add_compiler cxx "${CXX:-c++}"
add_compiler cxx g++
add_compiler cxx clang++

# Every (compiler, mode) pair, one per line: "command|flags|label".
configs=$tmp/configs
: >"$configs"
IFS='|'
for c in $c_compilers; do
	[ -n "$c" ] || continue
	for std in gnu99 c11; do
		echo "$c|-x c -std=$std|$c -std=$std" >>"$configs"
	done
done
for c in $cxx_compilers; do
	[ -n "$c" ] || continue
	for std in c++11 c++17; do
		echo "$c|-x c++ -std=$std|$c -std=$std" >>"$configs"
	done
done
unset IFS
if [ ! -s "$configs" ]; then
	echo "compile-test: no working C or C++ compiler; skipped"
	exit 77
fi
echo "compile-test: configurations:"
sed 's/^[^|]*|[^|]*|/	/' "$configs"

WFLAGS="-Wall -Wextra -Werror"

# --- helpers ----------------------------------------------------------------

# compile_all NAME FILE FLAGS: FILE must compile (-c) in every configuration.
compile_all()
{
	while IFS='|' read -r cc mode label; do
		log=$tmp/log
		# shellcheck disable=SC2086
		if $cc $mode $WFLAGS $3 -I"$incdir" -c "$2" -o "$tmp/out.o" \
			>"$log" 2>&1; then
			pass "$1 [$label]"
			[ "$verbose" = 1 ] && cat "$log"
		else
			fail "$1 [$label]: does not compile" "$log"
		fi
	done <"$configs"
}

# expect_fail NAME FILE REGEX FLAGS: FILE must fail to compile in every
# configuration, and the text of an error (not a file name, not an echoed
# source line) must match the extended REGEX. FLAGS replace the warning
# flags (no -Werror by default: a check must not depend on it).
expect_fail()
{
	while IFS='|' read -r cc mode label; do
		log=$tmp/log
		# shellcheck disable=SC2086
		if $cc $mode ${4:--Wall -Wextra} -I"$incdir" -c "$2" \
			-o "$tmp/out.o" >"$log" 2>&1; then
			fail "$1 [$label]: compiled, but must not"
		elif sed -n 's/^.*error: //p' "$log" | grep -Eq -- "$3"; then
			pass "$1 [$label]"
			[ "$verbose" = 1 ] && cat "$log"
		else
			fail "$1 [$label]: failed without a diagnostic matching /$3/" \
				"$log"
		fi
	done <"$configs"
}

# Build the record lister once, with the first C compiler.
records_tool=
first_c=$(echo "$c_compilers" | cut -d'|' -f2)
if [ -n "$first_c" ]; then
	# shellcheck disable=SC2086
	if $first_c -I"$incdir" "$testdir/eh-records.c" -o "$tmp/eh-records" \
		>"$tmp/log" 2>&1; then
		records_tool=$tmp/eh-records
	else
		fail "build eh-records" "$tmp/log"
	fi
fi

# run_all NAME EXPECTED FLAGS SOURCES...: build SOURCES with
# -DEH_INTERCEPTOR and FLAGS in every configuration, run the program, and
# compare its records with the file EXPECTED: one line per record of
# "tracepoint event-name field-count [payload-bytes]" (without the last
# column where it depends on the machine). The records of every
# configuration must also be byte-identical to those of the first.
run_all()
{
	name=$1
	expected=$2
	flags=$3
	shift 3
	ref=
	while IFS='|' read -r cc mode label; do
		log=$tmp/log
		objs=
		ok=1
		for src in "$@"; do
			obj=$tmp/$(basename "$src").o
			# shellcheck disable=SC2086
			if ! $cc $mode $WFLAGS $flags -DEH_INTERCEPTOR \
				-I"$incdir" -c "$src" -o "$obj" >"$log" 2>&1; then
				ok=0
				break
			fi
			objs="$objs $obj"
		done
		if [ $ok = 0 ]; then
			fail "$name [$label]: does not compile" "$log"
			continue
		fi
		# shellcheck disable=SC2086
		if ! $cc $objs -o "$tmp/prog" -pthread >"$log" 2>&1; then
			fail "$name [$label]: does not link" "$log"
			continue
		fi
		rm -f "$tmp/rec.dat"
		if ! EH_INTERCEPTOR_FILE=$tmp/rec.dat "$tmp/prog" >"$log" 2>&1
		then
			fail "$name [$label]: program failed" "$log"
			continue
		fi
		if [ -z "$records_tool" ]; then
			fail "$name [$label]: no record lister"
			continue
		fi
		if ! "$records_tool" "$tmp/rec.dat" >"$tmp/got" 2>"$log"; then
			fail "$name [$label]: malformed records" "$log"
			continue
		fi
		columns=$(head -n 1 "$expected" | wc -w)
		cut -d' ' -f1-"$columns" "$tmp/got" >"$tmp/got.cut"
		if ! diff -u "$expected" "$tmp/got.cut" >"$log" 2>&1; then
			fail "$name [$label]: unexpected records" "$log"
		elif [ -z "$ref" ]; then
			ref=$tmp/ref.dat
			cp "$tmp/rec.dat" "$ref"
			pass "$name [$label]"
		elif cmp "$ref" "$tmp/rec.dat" >"$log" 2>&1; then
			pass "$name [$label]"
		else
			fail "$name [$label]: records differ from the first configuration's" "$log"
		fi
	done <"$configs"
}

# write_prog FILE HEADER PROVIDER-LINE BODY: a program defining "prov" and
# running BODY in main() (argc is in "v", to make a non-constant).
write_prog()
{
	cat >"$1" <<EOF
#include <eventheader/$2>
$3
int main(int argc, char **argv)
{
	int v = argc;

	(void)argv;
	(void)v;
	$4;
	return 0;
}
EOF
}

# --- 1. every header alone and all together ---------------------------------

headers=
for h in "$ehdir"/*.h; do
	headers="$headers ${h##*/}"
done
for h in $headers; do
	base=$(echo "$h" | tr '.-' '__')
	printf '#include <eventheader/%s>\nint main(void) { return 0; }\n' \
		"$h" >"$tmp/alone_$base.c"
	compile_all "header $h alone" "$tmp/alone_$base.c" ""
done

: >"$tmp/all.c"
: >"$tmp/all_rev.c"
reversed=
for h in $headers; do
	echo "#include <eventheader/$h>" >>"$tmp/all.c"
	reversed="$h $reversed"
done
for h in $reversed; do
	echo "#include <eventheader/$h>" >>"$tmp/all_rev.c"
done
echo 'int main(void) { return 0; }' | tee -a "$tmp/all.c" >>"$tmp/all_rev.c"
compile_all "all headers" "$tmp/all.c" ""
compile_all "all headers, reverse order" "$tmp/all_rev.c" ""
compile_all "all headers, EH_INTERCEPTOR" "$tmp/all.c" "-DEH_INTERCEPTOR"

# A second translation unit including everything again links (no
# duplicate definitions of the shared state or of inline functions).
sed 's/int main(void)/int second_main(void); int second_main(void)/' \
	"$tmp/all.c" >"$tmp/second.c"
while IFS='|' read -r cc mode label; do
	log=$tmp/log
	# shellcheck disable=SC2086
	if $cc $mode $WFLAGS -I"$incdir" -c "$tmp/all.c" -o "$tmp/a1.o" \
		>"$log" 2>&1 &&
		$cc $mode $WFLAGS -I"$incdir" -c "$tmp/second.c" \
			-o "$tmp/a2.o" >>"$log" 2>&1 &&
		$cc "$tmp/a1.o" "$tmp/a2.o" -o "$tmp/a.out" -pthread \
			>>"$log" 2>&1; then
		pass "two translation units link [$label]"
	else
		fail "two translation units link [$label]" "$log"
	fi
done <"$configs"

# --- 2. programs run with the interceptor -----------------------------------

cat >"$tmp/two.expected" <<'EOF'
CompileTest_L4K0 A 1 4
CompileTest_L2K0 B 1 4
CompileTestTlg_L3K0 C 0 0
CompileTestTlg_L3K0 D 1 4
CompileTest_L4K0 E 0 0
CompileTest_L4K0 F 0 0
CompileTest_L5K10 G 1 6
EOF
run_all "two writes on one line" "$tmp/two.expected" "-O2" \
	"$testdir/two-per-line.c" "$testdir/other-file.c"

cat >"$tmp/none.expected" <<'EOF'
CompileTest_L5K0 Empty 0 0
CompileTest_L5K0 EmptyTlg 0 0
CompileTest_L1K0 OnlyLevel 0 0
CompileTest_L5K0 EmptyActivity 0 0
EOF
run_all "writes with no fields" "$tmp/none.expected" "" "$testdir/no-fields.c"

# Every kind of field, optimised and not: no warning may come out of the
# inlined write path (-Warray-bounds and the like only show with -O2).
cat >"$tmp/fields.expected" <<'EOF'
CompileTest_L5K0 Scalars 32
CompileTest_L5K0 Strings 15
CompileTest_L5K0 Arrays 12
CompileTest_L5K0 Activity 1
CompileTest_L5K0 Tlg 10
EOF
run_all "all field kinds -O0" "$tmp/fields.expected" "-O0" \
	"$testdir/all-fields.c"
run_all "all field kinds -O2" "$tmp/fields.expected" "-O2" \
	"$testdir/all-fields.c"

# The most arguments a write takes: 99 (EH_WRITE and TraceLoggingWrite),
# and one attribute plus 98 fields.
gen_args()	# count format: "format" with %d = 0..count-1, comma-separated
{
	i=0
	while [ $i -lt "$1" ]; do
		[ $i -gt 0 ] && printf ',\n\t\t'
		# shellcheck disable=SC2059
		printf "$2" $i $i
		i=$((i + 1))
	done
}
{
	echo '#include <eventheader/TraceLoggingProvider.h>'
	echo 'EH_DEFINE_PROVIDER(prov, "CompileTest");'
	echo 'int main(void)'
	echo '{'
	echo '	int rc = 0;'
	echo '	if (EH_REGISTER(prov))'
	echo '		return 10;'
	printf '\trc |= EH_WRITE(prov, "Max99",\n\t\t'
	gen_args 99 'EH_INT32("f%d", %d)'
	printf ');\n\trc |= TraceLoggingWrite(prov, "Max99Tlg",\n\t\t'
	gen_args 99 'TraceLoggingInt32(%d, "f%d")'
	printf ');\n\trc |= EH_WRITE(prov, "Max98", EH_LEVEL(4),\n\t\t'
	gen_args 98 'EH_INT32("f%d", %d)'
	echo ');'
	echo '	EH_UNREGISTER(prov);'
	echo '	return rc ? 1 : 0;'
	echo '}'
} >"$tmp/max99.c"
cat >"$tmp/max99.expected" <<'EOF'
CompileTest_L5K0 Max99 99 396
CompileTest_L5K0 Max99Tlg 99 396
CompileTest_L4K0 Max98 98 392
EOF
run_all "99 arguments" "$tmp/max99.expected" "" "$tmp/max99.c"

# --- 3. limits that must still compile ---------------------------------------

P='EH_DEFINE_PROVIDER(prov, "CompileTest");'
write_prog "$tmp/ok_limits.c" eh-provider.h "$P" \
'int a[65535] = { 0 };
	EH_WRITE(prov, "L1", EH_LEVEL(1));
	EH_WRITE(prov, "L255", EH_LEVEL(255), EH_KEYWORD(0xffffffffffffffffULL));
	EH_WRITE(prov, "S1", EH_STRUCT("s", 1), EH_INT32("a", v));
	EH_WRITE(prov, "S127", EH_STRUCT("s", 127), EH_INT32("a", v));
	EH_WRITE(prov, "A1", EH_INT32_FIXED_ARRAY("a", a, 1));
	EH_WRITE(prov, "A65535", EH_INT32_FIXED_ARRAY("a", a, 65535));
	EH_WRITE(prov, "E", EH_LEVEL(EH_LEVEL_INFO), EH_OPCODE(EH_OPCODE_INFO),
		 EH_ID_VERSION(65535, 255), EH_EVENT_TAG(0xffff));
	(void)EH_ENABLED(prov, 255, 0xffffffffffffffffULL)'
compile_all "boundary values" "$tmp/ok_limits.c" ""

# Longest provider names the static check accepts: tracepoint name
# "<name>_LffKffffffffffffffff<options>" of 255 characters.
name233=$(printf '%0233d' 0 | tr 0 a)
name234=$(printf '%0234d' 0 | tr 0 a)
name235=$(printf '%0235d' 0 | tr 0 a)
name232=$(printf '%0232d' 0 | tr 0 a)
write_prog "$tmp/ok_name233.c" eh-provider.h \
	"EH_DEFINE_PROVIDER(prov, \"$name233\");" 'EH_WRITE(prov, "E")'
compile_all "provider name of 233 characters" "$tmp/ok_name233.c" ""
write_prog "$tmp/ok_group.c" eh-provider.h \
	"EH_DEFINE_PROVIDER_GROUP(prov, \"$name232\", \"a\");" 'EH_WRITE(prov, "E")'
compile_all "provider name of 232 characters + group of 1" "$tmp/ok_group.c" ""

# A name the compile-time check accepts must also be accepted by
# EH_REGISTER (eh_provider_name_valid()): either both or neither.
write_prog "$tmp/name234.c" eh-provider.h \
	"EH_DEFINE_PROVIDER(prov, \"$name234\");" \
	'int err = EH_REGISTER(prov);
	if (err) {
		printf("EH_REGISTER: %d\n", err);
		return 1;
	}
	EH_UNREGISTER(prov)'
while IFS='|' read -r cc mode label; do
	log=$tmp/log
	# shellcheck disable=SC2086
	if $cc $mode -Wall -Wextra -DEH_INTERCEPTOR -I"$incdir" \
		"$tmp/name234.c" -o "$tmp/prog" -pthread >"$log" 2>&1; then
		if EH_INTERCEPTOR_FILE=$tmp/rec.dat "$tmp/prog" >"$log" 2>&1
		then
			pass "provider name of 234: compiles and registers [$label]"
		else
			fail "provider name of 234: compiles but EH_REGISTER rejects it [$label]" "$log"
		fi
	elif sed -n 's/^.*error: //p' "$log" | grep -q 'too long'; then
		pass "provider name of 234: rejected at compile time [$label]"
	else
		fail "provider name of 234: failed to compile without saying why [$label]" "$log"
	fi
done <"$configs"

# --- 4. misuse: must not compile ---------------------------------------------

# Unknown provider symbol (a typo): the diagnostic names it.
write_prog "$tmp/typo_write.c" eh-provider.h "$P" 'EH_WRITE(porv, "E", EH_LEVEL(4))'
expect_fail "typo in EH_WRITE provider" "$tmp/typo_write.c" "'porv'"
write_prog "$tmp/typo_register.c" eh-provider.h "$P" 'EH_REGISTER(porv)'
expect_fail "typo in EH_REGISTER provider" "$tmp/typo_register.c" "'porv'"
write_prog "$tmp/typo_enabled.c" eh-provider.h "$P" '(void)EH_ENABLED(porv, 4, 1)'
expect_fail "typo in EH_ENABLED provider" "$tmp/typo_enabled.c" "'porv'"
write_prog "$tmp/typo_tlg.c" TraceLoggingProvider.h \
	'TRACELOGGING_DEFINE_PROVIDER(prov, "CompileTest", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));' \
	'TraceLoggingWrite(porv, "E", TraceLoggingLevel(4))'
expect_fail "typo in TraceLoggingWrite provider" "$tmp/typo_tlg.c" "'porv'"
# Not a provider at all: an error, not a warning, in C and C++.
write_prog "$tmp/not_provider.c" eh-provider.h 'int porv;' \
	'EH_WRITE(porv, "E", EH_LEVEL(4))'
expect_fail "non-provider symbol in EH_WRITE" \
	"$tmp/not_provider.c" "not a provider"

# Provider name too long for a tracepoint name.
write_prog "$tmp/long_name.c" eh-provider.h \
	"EH_DEFINE_PROVIDER(prov, \"$name235\");" 'EH_WRITE(prov, "E")'
expect_fail "provider name of 235 characters" "$tmp/long_name.c" "too long"
write_prog "$tmp/long_group.c" eh-provider.h \
	"EH_DEFINE_PROVIDER_GROUP(prov, \"$name233\", \"a\");" 'EH_WRITE(prov, "E")'
expect_fail "provider name of 233 characters + group of 1" \
	"$tmp/long_group.c" "too long"
write_prog "$tmp/long_tlg.c" TraceLoggingProvider.h \
	"TRACELOGGING_DEFINE_PROVIDER(prov, \"$name235\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));" \
	'TraceLoggingWrite(prov, "E")'
expect_fail "TraceLogging provider name of 235 characters" \
	"$tmp/long_tlg.c" "too long"

# Levels (and the other attributes) must be constants.
write_prog "$tmp/level_var.c" eh-provider.h "$P" 'EH_WRITE(prov, "E", EH_LEVEL(v))'
expect_fail "non-constant EH_LEVEL" "$tmp/level_var.c" "level.*constant"
write_prog "$tmp/level_var_tlg.c" TraceLoggingProvider.h "$P" \
	'TraceLoggingWrite(prov, "E", TraceLoggingLevel(v))'
expect_fail "non-constant TraceLoggingLevel" "$tmp/level_var_tlg.c" "level.*constant"
write_prog "$tmp/enabled_var.c" eh-provider.h "$P" '(void)EH_ENABLED(prov, v, 1)'
expect_fail "non-constant EH_ENABLED level" "$tmp/enabled_var.c" "level.*constant"
write_prog "$tmp/keyword_var.c" eh-provider.h "$P" 'EH_WRITE(prov, "E", EH_KEYWORD(v))'
expect_fail "non-constant EH_KEYWORD" "$tmp/keyword_var.c" "keyword.*constant"

# Levels out of 1..255.
write_prog "$tmp/level_0.c" eh-provider.h "$P" 'EH_WRITE(prov, "E", EH_LEVEL(0))'
expect_fail "EH_LEVEL(0)" "$tmp/level_0.c" "level must be 1\.\.255"
write_prog "$tmp/level_256.c" eh-provider.h "$P" 'EH_WRITE(prov, "E", EH_LEVEL(256))'
expect_fail "EH_LEVEL(256)" "$tmp/level_256.c" "level must be 1\.\.255"
write_prog "$tmp/level_last_0.c" eh-provider.h "$P" \
	'EH_WRITE(prov, "E", EH_LEVEL(4), EH_LEVEL(0))'
expect_fail "EH_LEVEL(4), EH_LEVEL(0)" "$tmp/level_last_0.c" "level must be 1\.\.255"

# Struct member counts out of 1..127.
write_prog "$tmp/struct_0.c" eh-provider.h "$P" \
	'EH_WRITE(prov, "E", EH_STRUCT("s", 0), EH_INT32("a", v))'
expect_fail "EH_STRUCT count 0" "$tmp/struct_0.c" "struct field count.*1\.\.127"
write_prog "$tmp/struct_128.c" eh-provider.h "$P" \
	'EH_WRITE(prov, "E", EH_STRUCT("s", 128), EH_INT32("a", v))'
expect_fail "EH_STRUCT count 128" "$tmp/struct_128.c" "struct field count.*1\.\.127"
write_prog "$tmp/struct_tlg_0.c" TraceLoggingProvider.h "$P" \
	'TraceLoggingWrite(prov, "E", TraceLoggingStruct(0, "s"), TraceLoggingInt32(v))'
expect_fail "TraceLoggingStruct count 0" "$tmp/struct_tlg_0.c" "struct field count.*1\.\.127"

# Fixed array counts out of 1..65535.
write_prog "$tmp/carray_0.c" eh-provider.h "$P" \
	'int a[1] = { 0 }; EH_WRITE(prov, "E", EH_INT32_FIXED_ARRAY("a", a, 0))'
expect_fail "fixed array count 0" "$tmp/carray_0.c" "fixed array count.*1\.\.65535"
write_prog "$tmp/carray_65536.c" eh-provider.h "$P" \
	'static int a[65536]; EH_WRITE(prov, "E", EH_INT32_FIXED_ARRAY("a", a, 65536))'
expect_fail "fixed array count 65536" "$tmp/carray_65536.c" "fixed array count.*1\.\.65535"
write_prog "$tmp/carray_tlg_0.c" TraceLoggingProvider.h "$P" \
	'int a[1] = { 0 }; TraceLoggingWrite(prov, "E", TraceLoggingInt32FixedArray(a, 0))'
expect_fail "TraceLogging fixed array count 0" "$tmp/carray_tlg_0.c" "fixed array count.*1\.\.65535"

# --- summary ---------------------------------------------------------------------

echo "compile: $passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
	echo "failed:$failures"
	exit 1
fi
exit 0
