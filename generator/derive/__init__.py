"""What a build works out from the papers: titles, topics, related papers, people, groups."""
