//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager

// windowlibs_lazy is where a stub's slot leads before the libraries are
// loaded: its lazy entry has pushed the stub's index. It keeps every
// register a call may pass arguments in (the six integer ones, %rax for a
// variadic call's vector count, %xmm0-7), asks windowlibs_resolve for the
// function (which loads the libraries once, and aborts with their loader's
// message if they cannot be loaded), puts the registers back and jumps to
// the function, so the function sees the call exactly as the caller made it.
// Arguments on the stack are untouched: the stack is as it was on entry.
//
// Stack alignment: a call leaves %rsp at 8 mod 16; the index's push makes it
// 0, the seven pushes 8, and 136 bytes of room for %xmm0-7 (128) make it 0
// again for the call.

	.text
	.p2align 4
	.globl windowlibs_lazy
	.hidden windowlibs_lazy
	.type windowlibs_lazy, @function
windowlibs_lazy:
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %r8
	pushq %r9
	pushq %rax
	subq $136, %rsp
	movdqu %xmm0, 0(%rsp)
	movdqu %xmm1, 16(%rsp)
	movdqu %xmm2, 32(%rsp)
	movdqu %xmm3, 48(%rsp)
	movdqu %xmm4, 64(%rsp)
	movdqu %xmm5, 80(%rsp)
	movdqu %xmm6, 96(%rsp)
	movdqu %xmm7, 112(%rsp)
	movq 192(%rsp), %rdi
	call windowlibs_resolve
	movq %rax, %r11
	movdqu 0(%rsp), %xmm0
	movdqu 16(%rsp), %xmm1
	movdqu 32(%rsp), %xmm2
	movdqu 48(%rsp), %xmm3
	movdqu 64(%rsp), %xmm4
	movdqu 80(%rsp), %xmm5
	movdqu 96(%rsp), %xmm6
	movdqu 112(%rsp), %xmm7
	addq $136, %rsp
	popq %rax
	popq %r9
	popq %r8
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	addq $8, %rsp
	jmp *%r11
	.size windowlibs_lazy, .-windowlibs_lazy

	.section .note.GNU-stack,"",@progbits
