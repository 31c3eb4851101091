// The guesser interface: what every move guesser (pattern table, decision tree, softmax,
// uniform) offers to evaluation and to playout policies.
#pragma once

#include <memory>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "go/position.h"

namespace hane {

class Guesser {
 public:
  virtual ~Guesser() = default;

  /// Short name for reports, e.g. "diamond12 table".
  virtual std::string name() const = 0;

  /// Scores each candidate: out[i] for candidates[i], higher meaning more likely to be played.
  /// Candidates are legal moves of position.to_move on position.board (never pass), and
  /// out.size() == candidates.size(). If gives_probabilities(), the scores are probabilities
  /// that sum to 1 over the candidates. May use internal scratch space: one guesser per thread
  /// (see clone()).
  virtual void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) = 0;

  /// True if score() gives probabilities (then log-likelihoods are reported). When false, the
  /// scores must be log-scale (a log-probability up to a constant, as a linear model's logits):
  /// every user that needs probabilities (the search's priors, the `guesser:` playout policy,
  /// GTP's prior heat map) takes a softmax of them, p_i = exp(s_i) / sum_j exp(s_j), so one
  /// unit more multiplies a move's odds by e. Scores on another scale (a count, a
  /// probability) would come out wrongly peaked or flattened.
  virtual bool gives_probabilities() const { return false; }

  /// An independent copy for another thread (read-only model data may be shared).
  virtual std::unique_ptr<Guesser> clone() const = 0;

  /// How the guesser was made: kind, feature version, training corpus, options (free form).
  virtual nlohmann::json info() const = 0;

  /// Why the guesser likes `move` (a legal move of position.to_move) in `position`: a short
  /// human phrase for `hane play` and GTP comments, e.g. "diamond12 pattern, played 31% when
  /// seen". The default ranks the move among the legal moves with score(): "ranked 3 of 212
  /// legal moves (p = 4.1%)". Uses the same scratch space as score().
  virtual std::string explain(const Position& position, Vertex move);

  /// The model as text where it has one (decision trees: every question and leaf); "" otherwise.
  virtual std::string dump() const { return {}; }
};

}  // namespace hane
