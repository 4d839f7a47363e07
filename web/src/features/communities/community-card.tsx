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
}

/** A community tile linking to its page; the whole card is one link named after the community. */
export function CommunityCard({ endpoint, name, image, children }: CommunityCardProps) {
  return (
    <li className="community-card">
      <Link to={communityPath(endpoint)} className="community-card-link">
        <SafeImg className="community-card-image" src={communityImageUrl(image)} alt="" loading="lazy" />
        <span className="community-card-body">
          <span className="community-card-name">{name}</span>
          {children}
        </span>
      </Link>
    </li>
  );
}
