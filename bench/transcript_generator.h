// A deterministic generator of LLM transcripts for the benchmark: Markdown prose with many
// TELT and NESL blocks (all three NESL eras), a few percent of them broken the way models
// break them. Same options and seed -> byte-identical text on every platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace blockls::bench {

// Which blocks a transcript holds.
enum class Mix {
  classic,   // TELT and NESL of every era (the long-standing "mixed" figure)
  nesl_only, // current-era NESL only (the nesl-js comparison)
  heredoc,   // heredoc file creation only (`cat > PATH << 'EOF'`)
  edits,     // Aider edit blocks only (an Aider-style transcript)
  every,     // every registered dialect, in equal shares
};

struct TranscriptOptions {
  size_t target_bytes = size_t{10} << 20; // stops at the first turn boundary past this size
  uint64_t seed = 0x5eed'b10c'15ULL;
  Mix mix = Mix::classic;
  double broken_rate = 0.05; // share of blocks that get one mistake
};

struct TranscriptStats {
  size_t telt_blocks = 0;
  size_t nesl_blocks = 0; // current era
  size_t sham_blocks = 0;
  size_t nesl_upper_blocks = 0;
  size_t heredoc_blocks = 0;
  size_t editblock_blocks = 0;
  size_t replacer_blocks = 0;
  size_t sections_blocks = 0;
  size_t patch_blocks = 0;
  size_t broken_blocks = 0;
  size_t lines = 0;
  size_t total_blocks() const {
    return telt_blocks + nesl_blocks + sham_blocks + nesl_upper_blocks + heredoc_blocks +
           editblock_blocks + replacer_blocks + sections_blocks + patch_blocks;
  }
};

std::string generate_transcript(const TranscriptOptions& options, TranscriptStats* stats = nullptr);

} // namespace blockls::bench
