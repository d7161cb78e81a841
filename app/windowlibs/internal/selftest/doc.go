// Package selftest calls stubbed functions the way the window's C code
// does, for package windowlibs' tests: a variadic call with more integer
// arguments than registers (so one goes on the stack) and floating-point
// ones (in %xmm registers, counted in %al), which the lazy entry must hand
// on untouched to the function it loads.
//
//	got := selftest.FormatMany() // "1 2 3 4 5 1.500 2.250 six seven"
package selftest
