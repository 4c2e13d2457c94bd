"""The model core: config, layers, attention, masks, hook points and traces, decoding,
tokenizers and the checkpoint format. Imports nothing else from the project."""
