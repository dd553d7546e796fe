// libchafa 1.12 headers (Debian libchafa-dev) for the CChafa shim's C file only; the include
// directories (chafa, glib) come from pkg-config `chafa`. Swift code imports CChafa, whose
// header is glib-free.
#include <chafa.h>
