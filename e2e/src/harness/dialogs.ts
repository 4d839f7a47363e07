import type { Dialog, Page } from 'playwright-core';

export interface SeenDialog {
  type: string;
  message: string;
}

interface Expected {
  accept: boolean;
  resolve: (seen: SeenDialog) => void;
}

/**
 * Answers window.alert/confirm/prompt through one page.on('dialog') handler. A test announces each
 * dialog it expects (accept or dismiss) before the action that opens it; any other dialog is
 * dismissed and listed in `unexpected`.
 */
export function handleDialogs(page: Page) {
  const queue: Expected[] = [];
  const unexpected: SeenDialog[] = [];
  page.on('dialog', async (dialog: Dialog) => {
    const seen = { type: dialog.type(), message: dialog.message() };
    const next = queue.shift();
    if (!next) {
      unexpected.push(seen);
      await dialog.dismiss();
      return;
    }
    if (next.accept) await dialog.accept();
    else await dialog.dismiss();
    next.resolve(seen);
  });

  /** Resolves with the dialog once it has been answered; rejects if none opens within timeoutMs. */
  const next = (answer: 'accept' | 'dismiss', timeoutMs = 30_000): Promise<SeenDialog> => {
    let expected!: Expected;
    const shown = new Promise<SeenDialog>((resolve) => {
      expected = { accept: answer === 'accept', resolve };
    });
    queue.push(expected);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        queue.splice(queue.indexOf(expected), 1);
        reject(new Error(`No dialog opened within ${timeoutMs} ms (expected one to ${answer})`));
      }, timeoutMs);
    });
    return Promise.race([shown, timeout]).finally(() => clearTimeout(timer));
  };

  return { next, unexpected };
}
