"""The game as text for people: card faces, event lines, transcripts, and names made
safe to print (shared by the command line and the simulation summaries)."""
