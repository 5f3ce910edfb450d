def price(order, customer, coupons, today):
    total = 0
    for line in order.lines:
        if line.quantity <= 0:
            continue
        amount = line.unit_price * line.quantity
        if customer.is_member:
            if line.category in ("books", "music") and not line.on_sale:
                amount *= 0.9
            elif line.category == "food":
                if today.weekday() == 6:
                    amount *= 0.95
        for coupon in coupons:
            if coupon.applies_to(line) and coupon.valid_on(today):
                if coupon.percent:
                    amount -= amount * coupon.percent / 100
                else:
                    amount -= coupon.amount
        total += max(amount, 0)
    return round(total, 2)


def shipping(weight):
    return 5 if weight < 10 else 9
