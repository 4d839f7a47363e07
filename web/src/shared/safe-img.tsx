import type { ImgHTMLAttributes } from 'react';

/** A transparent pixel: a missing image then shows the element's own background, not a broken icon. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export function SafeImg({ alt = '', ...props }: ImgHTMLAttributes<HTMLImageElement>) {
  return (
    <img
      alt={alt}
      {...props}
      onError={(e) => {
        if (e.currentTarget.src !== BLANK) e.currentTarget.src = BLANK;
      }}
    />
  );
}
