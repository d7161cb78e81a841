// The generated table (table_linux_amd64.c) and the loader (load_linux_amd64.c)
// share these declarations.
#ifndef WINDOWLIBS_H
#define WINDOWLIBS_H

struct windowlibs_stub {
	const char *name; // the function
	int lib;          // its library's index in windowlibs_sonames
};

extern const char *const windowlibs_sonames[];
extern const int windowlibs_nlibs;
extern const struct windowlibs_stub windowlibs_stubs[];
extern const int windowlibs_count;
extern void *windowlibs_slots[]; // stubs_linux_amd64.S

const char *windowlibs_load(void);
void *windowlibs_resolve(long n);
const char *windowlibs_soname(int i);

#endif
