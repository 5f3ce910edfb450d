"""Source snippets shared by the front-end tests."""

#: A function over a cognitive limit of 2 whatever ``n`` is: format it to make an edited version.
VIOLATING = """\
def price(order, a, b):
    total = 0
    for line in order:
        if line and a or b:
            total += {n}
    return total
"""
