// Linked into every executable of a DERETH_SANITIZE build (cmake/Sanitizers.cmake).
//
// intercept_tls_get_addr=0: GCC 12's sanitizer runtime (libasan.so.8, as
// LLVM up to 16) guesses the bounds of each dynamic-TLS block in its
// __tls_get_addr interceptor. A block that happens to start 16 bytes into a
// page is taken for glibc 2.19-2.24's header, and the two words before it are
// read as the block's address and size; glibc 2.25 and later (Debian 12 has
// 2.36) has no such header, so LeakSanitizer's exit scan later reads a garbage
// range ("DTLS 13 at 0x2178-0x00180000327a") and its tracer dies with signal 11
// ("LeakSanitizer has encountered a fatal error"). Which block lands there
// depends on the heap's layout, so it looked like a flake. With the
// interceptor off, dynamic-TLS blocks are not scanned as roots; the static
// TLS, stacks, globals and heap still are. docs/sanitizers.md has the proof.
// ASAN_OPTIONS=intercept_tls_get_addr=1 brings the interceptor back.
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() {
  return "intercept_tls_get_addr=0";
}
