import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { communityPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';
import { createImageHold } from './image-hold';

/**
 * A list's first image is its page's largest paint: until it is in, the others wait (decision 031),
 * so they do not share the line with it. Released once, for the whole visit.
 */
const listImages = createImageHold();

/** The first image is in (or took too long): the held images are asked for now, without a render. */
export function releaseListImages(): void {
  listImages.release();
}

interface CommunityCardProps {
  endpoint: string;
  name: string;
  image: string;
  children?: ReactNode;
  /**
   * The first card of a list: its image is the page's largest paint, so it is fetched at once and
   * first, not lazily once layout has placed it (decision 025).
   */
  priority?: boolean;
  /**
   * The image waits for releaseListImages (once per visit): the box keeps its size and colour
   * meanwhile (communities.css).
   */
  holdImage?: boolean;
  /** The image has loaded, or failed: the list may let the others come. */
  onImageDone?: () => void;
}

/** A community tile linking to its page; the whole card is one link named after the community. */
export function CommunityCard({
  endpoint,
  name,
  image,
  children,
  priority = false,
  holdImage = false,
  onImageDone,
}: CommunityCardProps) {
  const url = communityImageUrl(image);
  const held = holdImage && listImages.held;
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (!held) return;
    return listImages.whenReleased(() => {
      if (img.current && !img.current.getAttribute('src')) img.current.src = url;
    });
  }, [held, url]);
  return (
    <li className="community-card">
      <Link to={communityPath(endpoint)} className="community-card-link">
        {/* loading before src: a renderer that sets attributes in order must not start an eager fetch. */}
        <SafeImg
          className="community-card-image"
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          imgRef={img}
          src={held ? undefined : url}
          alt=""
          onLoad={onImageDone}
          onErrorCapture={onImageDone}
        />
        <span className="community-card-body">
          <span className="community-card-name">{name}</span>
          {children}
        </span>
      </Link>
    </li>
  );
}
