/* SPDX-License-Identifier: MIT */
/*
 * eh-pp.h - preprocessor helpers of the EventHeader macro API (private)
 *
 * Nothing here uses the GNU ", ##__VA_ARGS__" rule, so the macros behave
 * the same in strict ISO modes (-std=c11, -std=c++11) as in GNU modes.
 *
 * EH__NARGS(...) counts 1..100 arguments; an empty argument counts as one.
 * EH__FOREACH(m, a1, a2, ...) expands to m(0, a1) m(1, a2) ... for 1..100
 * arguments (the write macros use one for themselves: 99 are the user's). The numbered lines are mechanical: EH__FE<n> peels one
 * argument and hands the rest to EH__FE<n-1>.
 */
#ifndef EVENTHEADER_EH_PP_H
#define EVENTHEADER_EH_PP_H

#define EH__CAT(a, b) EH__CAT_(a, b)
#define EH__CAT_(a, b) a##b
#define EH__STR(x) EH__STR_(x)
#define EH__STR_(x) #x
#define EH__HEAD(x, ...) x
#define EH__TAIL(x, ...) __VA_ARGS__
#define EH__NARGS(...) EH__NARGS_(__VA_ARGS__, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define EH__NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55, a56, a57, a58, a59, a60, a61, a62, a63, a64, a65, a66, a67, a68, a69, a70, a71, a72, a73, a74, a75, a76, a77, a78, a79, a80, a81, a82, a83, a84, a85, a86, a87, a88, a89, a90, a91, a92, a93, a94, a95, a96, a97, a98, a99, a100, n, ...) n

#define EH__FOREACH(m, ...) EH__CAT(EH__FE, EH__NARGS(__VA_ARGS__))(m, 0, __VA_ARGS__)
#define EH__FE1(m, i, a) m(i, a)
#define EH__FE2(m, i, a, ...) m(i, a) EH__FE1(m, EH__INC(i), __VA_ARGS__)
#define EH__FE3(m, i, a, ...) m(i, a) EH__FE2(m, EH__INC(i), __VA_ARGS__)
#define EH__FE4(m, i, a, ...) m(i, a) EH__FE3(m, EH__INC(i), __VA_ARGS__)
#define EH__FE5(m, i, a, ...) m(i, a) EH__FE4(m, EH__INC(i), __VA_ARGS__)
#define EH__FE6(m, i, a, ...) m(i, a) EH__FE5(m, EH__INC(i), __VA_ARGS__)
#define EH__FE7(m, i, a, ...) m(i, a) EH__FE6(m, EH__INC(i), __VA_ARGS__)
#define EH__FE8(m, i, a, ...) m(i, a) EH__FE7(m, EH__INC(i), __VA_ARGS__)
#define EH__FE9(m, i, a, ...) m(i, a) EH__FE8(m, EH__INC(i), __VA_ARGS__)
#define EH__FE10(m, i, a, ...) m(i, a) EH__FE9(m, EH__INC(i), __VA_ARGS__)
#define EH__FE11(m, i, a, ...) m(i, a) EH__FE10(m, EH__INC(i), __VA_ARGS__)
#define EH__FE12(m, i, a, ...) m(i, a) EH__FE11(m, EH__INC(i), __VA_ARGS__)
#define EH__FE13(m, i, a, ...) m(i, a) EH__FE12(m, EH__INC(i), __VA_ARGS__)
#define EH__FE14(m, i, a, ...) m(i, a) EH__FE13(m, EH__INC(i), __VA_ARGS__)
#define EH__FE15(m, i, a, ...) m(i, a) EH__FE14(m, EH__INC(i), __VA_ARGS__)
#define EH__FE16(m, i, a, ...) m(i, a) EH__FE15(m, EH__INC(i), __VA_ARGS__)
#define EH__FE17(m, i, a, ...) m(i, a) EH__FE16(m, EH__INC(i), __VA_ARGS__)
#define EH__FE18(m, i, a, ...) m(i, a) EH__FE17(m, EH__INC(i), __VA_ARGS__)
#define EH__FE19(m, i, a, ...) m(i, a) EH__FE18(m, EH__INC(i), __VA_ARGS__)
#define EH__FE20(m, i, a, ...) m(i, a) EH__FE19(m, EH__INC(i), __VA_ARGS__)
#define EH__FE21(m, i, a, ...) m(i, a) EH__FE20(m, EH__INC(i), __VA_ARGS__)
#define EH__FE22(m, i, a, ...) m(i, a) EH__FE21(m, EH__INC(i), __VA_ARGS__)
#define EH__FE23(m, i, a, ...) m(i, a) EH__FE22(m, EH__INC(i), __VA_ARGS__)
#define EH__FE24(m, i, a, ...) m(i, a) EH__FE23(m, EH__INC(i), __VA_ARGS__)
#define EH__FE25(m, i, a, ...) m(i, a) EH__FE24(m, EH__INC(i), __VA_ARGS__)
#define EH__FE26(m, i, a, ...) m(i, a) EH__FE25(m, EH__INC(i), __VA_ARGS__)
#define EH__FE27(m, i, a, ...) m(i, a) EH__FE26(m, EH__INC(i), __VA_ARGS__)
#define EH__FE28(m, i, a, ...) m(i, a) EH__FE27(m, EH__INC(i), __VA_ARGS__)
#define EH__FE29(m, i, a, ...) m(i, a) EH__FE28(m, EH__INC(i), __VA_ARGS__)
#define EH__FE30(m, i, a, ...) m(i, a) EH__FE29(m, EH__INC(i), __VA_ARGS__)
#define EH__FE31(m, i, a, ...) m(i, a) EH__FE30(m, EH__INC(i), __VA_ARGS__)
#define EH__FE32(m, i, a, ...) m(i, a) EH__FE31(m, EH__INC(i), __VA_ARGS__)
#define EH__FE33(m, i, a, ...) m(i, a) EH__FE32(m, EH__INC(i), __VA_ARGS__)
#define EH__FE34(m, i, a, ...) m(i, a) EH__FE33(m, EH__INC(i), __VA_ARGS__)
#define EH__FE35(m, i, a, ...) m(i, a) EH__FE34(m, EH__INC(i), __VA_ARGS__)
#define EH__FE36(m, i, a, ...) m(i, a) EH__FE35(m, EH__INC(i), __VA_ARGS__)
#define EH__FE37(m, i, a, ...) m(i, a) EH__FE36(m, EH__INC(i), __VA_ARGS__)
#define EH__FE38(m, i, a, ...) m(i, a) EH__FE37(m, EH__INC(i), __VA_ARGS__)
#define EH__FE39(m, i, a, ...) m(i, a) EH__FE38(m, EH__INC(i), __VA_ARGS__)
#define EH__FE40(m, i, a, ...) m(i, a) EH__FE39(m, EH__INC(i), __VA_ARGS__)
#define EH__FE41(m, i, a, ...) m(i, a) EH__FE40(m, EH__INC(i), __VA_ARGS__)
#define EH__FE42(m, i, a, ...) m(i, a) EH__FE41(m, EH__INC(i), __VA_ARGS__)
#define EH__FE43(m, i, a, ...) m(i, a) EH__FE42(m, EH__INC(i), __VA_ARGS__)
#define EH__FE44(m, i, a, ...) m(i, a) EH__FE43(m, EH__INC(i), __VA_ARGS__)
#define EH__FE45(m, i, a, ...) m(i, a) EH__FE44(m, EH__INC(i), __VA_ARGS__)
#define EH__FE46(m, i, a, ...) m(i, a) EH__FE45(m, EH__INC(i), __VA_ARGS__)
#define EH__FE47(m, i, a, ...) m(i, a) EH__FE46(m, EH__INC(i), __VA_ARGS__)
#define EH__FE48(m, i, a, ...) m(i, a) EH__FE47(m, EH__INC(i), __VA_ARGS__)
#define EH__FE49(m, i, a, ...) m(i, a) EH__FE48(m, EH__INC(i), __VA_ARGS__)
#define EH__FE50(m, i, a, ...) m(i, a) EH__FE49(m, EH__INC(i), __VA_ARGS__)
#define EH__FE51(m, i, a, ...) m(i, a) EH__FE50(m, EH__INC(i), __VA_ARGS__)
#define EH__FE52(m, i, a, ...) m(i, a) EH__FE51(m, EH__INC(i), __VA_ARGS__)
#define EH__FE53(m, i, a, ...) m(i, a) EH__FE52(m, EH__INC(i), __VA_ARGS__)
#define EH__FE54(m, i, a, ...) m(i, a) EH__FE53(m, EH__INC(i), __VA_ARGS__)
#define EH__FE55(m, i, a, ...) m(i, a) EH__FE54(m, EH__INC(i), __VA_ARGS__)
#define EH__FE56(m, i, a, ...) m(i, a) EH__FE55(m, EH__INC(i), __VA_ARGS__)
#define EH__FE57(m, i, a, ...) m(i, a) EH__FE56(m, EH__INC(i), __VA_ARGS__)
#define EH__FE58(m, i, a, ...) m(i, a) EH__FE57(m, EH__INC(i), __VA_ARGS__)
#define EH__FE59(m, i, a, ...) m(i, a) EH__FE58(m, EH__INC(i), __VA_ARGS__)
#define EH__FE60(m, i, a, ...) m(i, a) EH__FE59(m, EH__INC(i), __VA_ARGS__)
#define EH__FE61(m, i, a, ...) m(i, a) EH__FE60(m, EH__INC(i), __VA_ARGS__)
#define EH__FE62(m, i, a, ...) m(i, a) EH__FE61(m, EH__INC(i), __VA_ARGS__)
#define EH__FE63(m, i, a, ...) m(i, a) EH__FE62(m, EH__INC(i), __VA_ARGS__)
#define EH__FE64(m, i, a, ...) m(i, a) EH__FE63(m, EH__INC(i), __VA_ARGS__)
#define EH__FE65(m, i, a, ...) m(i, a) EH__FE64(m, EH__INC(i), __VA_ARGS__)
#define EH__FE66(m, i, a, ...) m(i, a) EH__FE65(m, EH__INC(i), __VA_ARGS__)
#define EH__FE67(m, i, a, ...) m(i, a) EH__FE66(m, EH__INC(i), __VA_ARGS__)
#define EH__FE68(m, i, a, ...) m(i, a) EH__FE67(m, EH__INC(i), __VA_ARGS__)
#define EH__FE69(m, i, a, ...) m(i, a) EH__FE68(m, EH__INC(i), __VA_ARGS__)
#define EH__FE70(m, i, a, ...) m(i, a) EH__FE69(m, EH__INC(i), __VA_ARGS__)
#define EH__FE71(m, i, a, ...) m(i, a) EH__FE70(m, EH__INC(i), __VA_ARGS__)
#define EH__FE72(m, i, a, ...) m(i, a) EH__FE71(m, EH__INC(i), __VA_ARGS__)
#define EH__FE73(m, i, a, ...) m(i, a) EH__FE72(m, EH__INC(i), __VA_ARGS__)
#define EH__FE74(m, i, a, ...) m(i, a) EH__FE73(m, EH__INC(i), __VA_ARGS__)
#define EH__FE75(m, i, a, ...) m(i, a) EH__FE74(m, EH__INC(i), __VA_ARGS__)
#define EH__FE76(m, i, a, ...) m(i, a) EH__FE75(m, EH__INC(i), __VA_ARGS__)
#define EH__FE77(m, i, a, ...) m(i, a) EH__FE76(m, EH__INC(i), __VA_ARGS__)
#define EH__FE78(m, i, a, ...) m(i, a) EH__FE77(m, EH__INC(i), __VA_ARGS__)
#define EH__FE79(m, i, a, ...) m(i, a) EH__FE78(m, EH__INC(i), __VA_ARGS__)
#define EH__FE80(m, i, a, ...) m(i, a) EH__FE79(m, EH__INC(i), __VA_ARGS__)
#define EH__FE81(m, i, a, ...) m(i, a) EH__FE80(m, EH__INC(i), __VA_ARGS__)
#define EH__FE82(m, i, a, ...) m(i, a) EH__FE81(m, EH__INC(i), __VA_ARGS__)
#define EH__FE83(m, i, a, ...) m(i, a) EH__FE82(m, EH__INC(i), __VA_ARGS__)
#define EH__FE84(m, i, a, ...) m(i, a) EH__FE83(m, EH__INC(i), __VA_ARGS__)
#define EH__FE85(m, i, a, ...) m(i, a) EH__FE84(m, EH__INC(i), __VA_ARGS__)
#define EH__FE86(m, i, a, ...) m(i, a) EH__FE85(m, EH__INC(i), __VA_ARGS__)
#define EH__FE87(m, i, a, ...) m(i, a) EH__FE86(m, EH__INC(i), __VA_ARGS__)
#define EH__FE88(m, i, a, ...) m(i, a) EH__FE87(m, EH__INC(i), __VA_ARGS__)
#define EH__FE89(m, i, a, ...) m(i, a) EH__FE88(m, EH__INC(i), __VA_ARGS__)
#define EH__FE90(m, i, a, ...) m(i, a) EH__FE89(m, EH__INC(i), __VA_ARGS__)
#define EH__FE91(m, i, a, ...) m(i, a) EH__FE90(m, EH__INC(i), __VA_ARGS__)
#define EH__FE92(m, i, a, ...) m(i, a) EH__FE91(m, EH__INC(i), __VA_ARGS__)
#define EH__FE93(m, i, a, ...) m(i, a) EH__FE92(m, EH__INC(i), __VA_ARGS__)
#define EH__FE94(m, i, a, ...) m(i, a) EH__FE93(m, EH__INC(i), __VA_ARGS__)
#define EH__FE95(m, i, a, ...) m(i, a) EH__FE94(m, EH__INC(i), __VA_ARGS__)
#define EH__FE96(m, i, a, ...) m(i, a) EH__FE95(m, EH__INC(i), __VA_ARGS__)
#define EH__FE97(m, i, a, ...) m(i, a) EH__FE96(m, EH__INC(i), __VA_ARGS__)
#define EH__FE98(m, i, a, ...) m(i, a) EH__FE97(m, EH__INC(i), __VA_ARGS__)
#define EH__FE99(m, i, a, ...) m(i, a) EH__FE98(m, EH__INC(i), __VA_ARGS__)
#define EH__FE100(m, i, a, ...) m(i, a) EH__FE99(m, EH__INC(i), __VA_ARGS__)

#define EH__INC(i) EH__CAT(EH__INC_, i)
#define EH__INC_0 1
#define EH__INC_1 2
#define EH__INC_2 3
#define EH__INC_3 4
#define EH__INC_4 5
#define EH__INC_5 6
#define EH__INC_6 7
#define EH__INC_7 8
#define EH__INC_8 9
#define EH__INC_9 10
#define EH__INC_10 11
#define EH__INC_11 12
#define EH__INC_12 13
#define EH__INC_13 14
#define EH__INC_14 15
#define EH__INC_15 16
#define EH__INC_16 17
#define EH__INC_17 18
#define EH__INC_18 19
#define EH__INC_19 20
#define EH__INC_20 21
#define EH__INC_21 22
#define EH__INC_22 23
#define EH__INC_23 24
#define EH__INC_24 25
#define EH__INC_25 26
#define EH__INC_26 27
#define EH__INC_27 28
#define EH__INC_28 29
#define EH__INC_29 30
#define EH__INC_30 31
#define EH__INC_31 32
#define EH__INC_32 33
#define EH__INC_33 34
#define EH__INC_34 35
#define EH__INC_35 36
#define EH__INC_36 37
#define EH__INC_37 38
#define EH__INC_38 39
#define EH__INC_39 40
#define EH__INC_40 41
#define EH__INC_41 42
#define EH__INC_42 43
#define EH__INC_43 44
#define EH__INC_44 45
#define EH__INC_45 46
#define EH__INC_46 47
#define EH__INC_47 48
#define EH__INC_48 49
#define EH__INC_49 50
#define EH__INC_50 51
#define EH__INC_51 52
#define EH__INC_52 53
#define EH__INC_53 54
#define EH__INC_54 55
#define EH__INC_55 56
#define EH__INC_56 57
#define EH__INC_57 58
#define EH__INC_58 59
#define EH__INC_59 60
#define EH__INC_60 61
#define EH__INC_61 62
#define EH__INC_62 63
#define EH__INC_63 64
#define EH__INC_64 65
#define EH__INC_65 66
#define EH__INC_66 67
#define EH__INC_67 68
#define EH__INC_68 69
#define EH__INC_69 70
#define EH__INC_70 71
#define EH__INC_71 72
#define EH__INC_72 73
#define EH__INC_73 74
#define EH__INC_74 75
#define EH__INC_75 76
#define EH__INC_76 77
#define EH__INC_77 78
#define EH__INC_78 79
#define EH__INC_79 80
#define EH__INC_80 81
#define EH__INC_81 82
#define EH__INC_82 83
#define EH__INC_83 84
#define EH__INC_84 85
#define EH__INC_85 86
#define EH__INC_86 87
#define EH__INC_87 88
#define EH__INC_88 89
#define EH__INC_89 90
#define EH__INC_90 91
#define EH__INC_91 92
#define EH__INC_92 93
#define EH__INC_93 94
#define EH__INC_94 95
#define EH__INC_95 96
#define EH__INC_96 97
#define EH__INC_97 98
#define EH__INC_98 99
#define EH__INC_99 100
#define EH__INC_100 101

#endif /* EVENTHEADER_EH_PP_H */
