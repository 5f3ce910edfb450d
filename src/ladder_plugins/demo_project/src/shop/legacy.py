def legacy_report(rows, fmt, currency, group, totals):
    """Old, complex, and nobody has touched it in years."""
    out = []
    for row in rows:
        if group and row.get("group") != group:
            continue
        if fmt == "csv":
            if currency:
                out.append(f"{row['name']},{row['amount']} {currency}")
            else:
                out.append(f"{row['name']},{row['amount']}")
        elif fmt == "tsv":
            if currency:
                out.append(f"{row['name']}\t{row['amount']} {currency}")
            else:
                out.append(f"{row['name']}\t{row['amount']}")
        else:
            for key in sorted(row):
                if key.startswith("_") or (key == "amount" and not totals):
                    continue
                out.append(f"{key}={row[key]}")
    return "\n".join(out)
