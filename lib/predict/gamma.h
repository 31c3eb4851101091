// The gamma guesser: Bradley-Terry move ratings over a 3x3 pattern and a few tactical flags
// (R. Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go", ICGA Journal 2007).
//
// Every legal move v of the player c to move has features, one value per group:
//   pattern    the canonical 3x3 code around v for c, with the liberty buckets 1 / 2 / 3+ of the
//              neighbouring chains (pattern.h); codes not in the model share the "other" value;
//   capture    1 captures 1 stone, 2 captures 2 or more, 3 captures the chain of the last move;
//   escape     saves an own chain from atari (MoveFacts::saved_stones > 0): 1 to 2 liberties,
//              2 to 3 or more; when a saved chain touches the last move (a response, read with
//              the ladder check of tactics.h) 3 if it then escapes the ladder, 4 if it does not;
//   self-atari 1 leaves a chain of 1-2 stones in atari, 2 of 3 or more, 3 while capturing (a ko
//              or a snapback-like throw-in);
//   atari      1 puts 1-2 opponent stones in atari, 2 three or more;
//   distance   to the last move, move_distance() 2, 3 or 4 (values 1, 2, 3), else 0;
//   distance2  the same to the move before it;
//   nakade     1 the vital point of an opponent's killing eye space, 2 of one's own.
// Value 0 of a flag group has gamma 1. The move's strength is the product of the gammas of its
// features, and P(v) = strength(v) / sum of the strengths of the legal moves.
//
// Every feature but the distances and the response part of `capture` / `escape` is a fact of
// the board near v, so the playout policy (playout/gamma.h) keeps the strengths up to date by
// re-rating only points whose neighbourhood changed; the distances and responses change only at
// the points of gamma_context().
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "go/board.h"
#include "go/position.h"
#include "predict/guesser.h"
#include "predict/model_file.h"

namespace hane {

/// Version of the gamma features above; model files record it. Bump on any change of groups,
/// values or their definitions.
inline constexpr int kGammaFeatureVersion = 1;

enum GammaGroup : int {
  kGammaCapture,
  kGammaEscape,
  kGammaSelfAtari,
  kGammaAtari,
  kGammaDistance,
  kGammaDistance2,
  kGammaNakade,
  kNumGammaGroups
};
/// Values of each flag group, 0 ("absent") included.
inline constexpr std::array<int, kNumGammaGroups> kGammaGroupValues = {4, 5, 4, 3, 4, 4, 3};
/// "capture", "escape", ...
std::string_view gamma_group_name(int group);

/// The features of one move.
struct GammaFeatures {
  uint32_t pattern = 0;                       // canonical 3x3 code for the player to move
  std::array<uint8_t, kNumGammaGroups> flag{};  // value per group, 0 = absent
};

/// The features of `position.to_move` playing the legal move `v`; `raw3x3` is the raw 3x3 code
/// around v for the player to move (pattern_code() or PatternTracker::code()).
GammaFeatures gamma_features(const Position& position, Vertex v, uint32_t raw3x3);

/// The points whose distance or response features depend on the last two moves of `position`:
/// the diamond12 points of the last and second-last moves (on the board), the liberty of the
/// last move's chain when in atari, and for each chain of the player to move next to the last
/// move that is in atari, its liberty and the liberties of the opponent chains in atari next to
/// it. Appended to `out` as point indices (duplicates possible).
void gamma_context(const Position& position, std::vector<int16_t>& out);
/// The same without the diamonds: the points whose response features depend on the last move.
void gamma_response_points(const Position& position, std::vector<int16_t>& out);

/// The model: a gamma per feature value, in one vector:
///   [0, P)        the patterns, in the order of `pattern_codes` (sorted canonical codes);
///   P             the "other" pattern;
///   P + 1 + ...   each flag group's values 1.. in group order (flag_index()).
struct GammaModel {
  std::vector<uint32_t> pattern_codes;
  std::vector<float> gammas;
  nlohmann::json training = nlohmann::json::object();

  int num_patterns() const { return static_cast<int>(pattern_codes.size()); }
  int num_weights() const { return static_cast<int>(gammas.size()); }
  /// The weight index of flag value `value` (>= 1) of `group`.
  int flag_index(int group, int value) const { return num_patterns() + 1 + kFlagOffsets[group] + value - 1; }
  /// The weight index of a canonical pattern code (the "other" index P if unknown).
  int pattern_index(uint32_t code) const;
  /// The weight indices of `f`'s features (pattern first, then each present flag); returns n.
  int indices(const GammaFeatures& f, std::array<int, 1 + kNumGammaGroups>& out) const {
    int n = 0;
    out[n++] = pattern_index(f.pattern);
    for (int g = 0; g < kNumGammaGroups; ++g) {
      if (f.flag[g]) out[n++] = flag_index(g, f.flag[g]);
    }
    return n;
  }
  /// The move's strength: the product of its features' gammas.
  double strength(const GammaFeatures& f) const {
    double s = gammas[pattern_index(f.pattern)];
    for (int g = 0; g < kNumGammaGroups; ++g) {
      if (f.flag[g]) s *= gammas[flag_index(g, f.flag[g])];
    }
    return s;
  }
  /// A model with these patterns and every gamma 1 (the start of training).
  static GammaModel uniform(std::vector<uint32_t> codes);
  /// Builds the lookup table of pattern_index(); call after changing pattern_codes.
  void index();
  /// Total number of flag values with a gamma (sum of kGammaGroupValues - 1).
  static int num_flag_weights();
  /// A readable name of weight i ("pattern 1a2b0000", "escape=3"...).
  std::string weight_name(int i) const;

  static constexpr std::array<int, kNumGammaGroups> kFlagOffsets = [] {
    std::array<int, kNumGammaGroups> o{};
    int s = 0;
    for (int g = 0; g < kNumGammaGroups; ++g) o[g] = s, s += kGammaGroupValues[g] - 1;
    return o;
  }();

 private:
  std::vector<uint32_t> slot_key_;  // open addressing: key + 1 (0 = free)
  std::vector<int32_t> slot_index_;
  uint32_t mask_ = 0;
};

/// Writes `model` (kind "gamma", feature_version, pattern_version, training). Errors name the
/// path.
absl::Status save_gamma_model(const GammaModel& model, const std::string& path);
/// The model in `file`. Errors (InvalidArgument, naming `path`): another kind, other feature or
/// pattern versions, a corrupt payload (sizes, order, non-positive or non-finite gammas).
absl::StatusOr<GammaModel> gamma_model_from_file(const ModelFile& file, const std::string& path);

/// Probabilities of the candidates by full recomputation (the reference the playout policy
/// equals).
class GammaGuesser final : public Guesser {
 public:
  explicit GammaGuesser(std::shared_ptr<const GammaModel> model) : model_(std::move(model)) {}
  std::string name() const override { return "gamma"; }
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<GammaGuesser>(model_); }
  nlohmann::json info() const override;
  const std::shared_ptr<const GammaModel>& model() const { return model_; }

 private:
  std::shared_ptr<const GammaModel> model_;
};

}  // namespace hane
