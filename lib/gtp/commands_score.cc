// The quick score estimate: estimate_score, GNU Go's extension, answered as final_score is
// ("B+12.5", "W+3.5", "0") from the whole-board classes and a dead-stone guess
// (search/score_estimate.h) under the game's counting (area or territory) and komi. Unlike
// final_score it takes milliseconds and reads a position in the middle of the game too.
#include "gtp/engine.h"

namespace hane::gtp {

void Engine::register_score_commands() {
  add("estimate_score", [this](Call& c) {
    c.args.done();
    const ScoreEstimate e = player_->estimate_score(game_, rules_.scoring == Scoring::kTerritory);
    c.text = result_text(e.margin);
  });
}

}  // namespace hane::gtp
