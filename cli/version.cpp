// The version string compiled into the CLI.
namespace blockls::cli {
const char* version() { return BLOCKLS_VERSION; }
} // namespace blockls::cli
