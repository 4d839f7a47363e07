import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { communityPath } from '../../shared/paths';
import { SafeImg } from '../../shared/safe-img';

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
}

/** A community tile linking to its page; the whole card is one link named after the community. */
export function CommunityCard({ endpoint, name, image, children, priority = false }: CommunityCardProps) {
  return (
    <li className="community-card">
      <Link to={communityPath(endpoint)} className="community-card-link">
        {/* loading before src: a renderer that sets attributes in order must not start an eager fetch. */}
        <SafeImg
          className="community-card-image"
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          src={communityImageUrl(image)}
          alt=""
        />
        <span className="community-card-body">
          <span className="community-card-name">{name}</span>
          {children}
        </span>
      </Link>
    </li>
  );
}
