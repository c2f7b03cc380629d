// jemalloc's options for the blockls executable, read by jemalloc at its start from this
// symbol (the library defines a weak default). Compiled only into a binary linked with
// jemalloc (see CMakeLists.txt); MALLOC_CONF in the environment still overrides it.
//
// oversize_threshold:0 — jemalloc puts requests over 8 MiB in a dedicated arena that gives
// their pages back to the system as soon as they are freed. The language server frees and
// rebuilds vectors of that size on every keystroke of a large transcript (10 MB: the plan,
// the simulation's blocks, the text), so each version wrote into fresh pages: a third of its
// time was page faults and madvise. Without the dedicated arena, freed pages are reused (and
// returned after the usual decay). lsp_latency 10 MB with a root: server CPU per edit 88-93 ->
// 54-55 ms.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "oversize_threshold:0";
}
