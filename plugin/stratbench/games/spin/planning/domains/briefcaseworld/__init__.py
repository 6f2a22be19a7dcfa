"""The briefcaseworld planning domain: carry objects between locations in a briefcase."""
