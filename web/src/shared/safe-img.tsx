import type { ImgHTMLAttributes, Ref } from 'react';

/** A transparent pixel: a missing image then shows the element's own background, not a broken icon. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** `imgRef`: the element itself, for a caller that sets its source later without a render. */
export function SafeImg({
  alt = '',
  imgRef,
  ...props
}: ImgHTMLAttributes<HTMLImageElement> & { imgRef?: Ref<HTMLImageElement> }) {
  return (
    <img
      alt={alt}
      ref={imgRef}
      {...props}
      onError={(e) => {
        if (e.currentTarget.src !== BLANK) e.currentTarget.src = BLANK;
      }}
    />
  );
}
