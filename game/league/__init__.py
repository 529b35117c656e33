"""Leagues and tournaments, the pure part: pairings (Swiss, round robin), standings with their
tie-breaks, and ratings. The service stores what these decide; nothing here touches a database."""
