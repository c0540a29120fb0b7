"""Rules for characters: CJK runs and cutting, slugs, text made safe at the edge."""
