/* The version has one source, project(VERSION) in CMakeLists.txt: the
 * generated header's macros and the library's tbk_version() must both be
 * that version (TBK_PROJECT_VERSION is passed in by tests/CMakeLists.txt). */
#include <stdio.h>

#include "check.h"
#include "tbk.h"

int main(void) {
  CHECK_STR(TBK_VERSION, TBK_PROJECT_VERSION);
  CHECK_STR(tbk_version(), TBK_PROJECT_VERSION);
  char parts[64];
  snprintf(parts, sizeof parts, "%d.%d.%d", TBK_VERSION_MAJOR, TBK_VERSION_MINOR, TBK_VERSION_PATCH);
  CHECK_STR(parts, TBK_PROJECT_VERSION);
  CHECK_INT(TBK_VERSION_NUMBER, TBK_VERSION_MAJOR * 10000 + TBK_VERSION_MINOR * 100 + TBK_VERSION_PATCH);
#if TBK_VERSION_NUMBER < 100
  CHECK(!"TBK_VERSION_NUMBER is usable in #if and at least 0.1.0");
#endif
  return check_report();
}
