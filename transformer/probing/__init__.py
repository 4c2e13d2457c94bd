"""Looking inside a trained model: the head finder, probes, pronoun checks, attention
supervision's targets, rollout, the head atlas, inspection, scores and knowledge."""
