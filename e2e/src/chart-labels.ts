import type { Locator } from 'playwright-core';

/**
 * What a breakdown card's histogram (recharts SVG) gets wrong about its reference lines' labels
 * ('You', '✓ 180'): a label inside the plot, where a bar may run under it, or two labels over each
 * other. Empty when every label stands above the plot on the card's white, clear of the others.
 */
export function chartLabelProblems(card: Locator): Promise<string[]> {
  return card
    .locator('.histogram svg')
    .first()
    .evaluate((svg) => {
      const meet = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      // The plot's top: that of the rectangle recharts clips the bars to (in the SVG's own units,
      // which are its CSS pixels: recharts draws at the size it is given).
      const clip = svg.querySelector('clipPath rect');
      if (!clip) return ['no plot area'];
      const plotTop = svg.getBoundingClientRect().top + Number(clip.getAttribute('y'));
      const labels = [...svg.querySelectorAll('text.recharts-label')];
      const out: string[] = labels.length === 0 ? ['no label'] : [];
      for (const [i, label] of labels.entries()) {
        const box = label.getBoundingClientRect();
        if (box.bottom > plotTop + 1) out.push(`${label.textContent} inside the plot`);
        for (const other of labels.slice(i + 1))
          if (meet(box, other.getBoundingClientRect()))
            out.push(`${label.textContent} over ${other.textContent}`);
      }
      return out;
    });
}
