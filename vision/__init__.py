"""Vision side of tableref: video sources, the pile watcher, the card recogniser, synthetic scenes."""
