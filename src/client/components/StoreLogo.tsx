// A store's logo: its store_logo_url, which the app serves itself (public/logos/), so showing one
// asks no third party. While it loads, or when it fails to load or there is none, a placeholder
// shows the store's initial.
import { Avatar } from '@chakra-ui/react';

export interface StoreLogoProps {
  name: string;
  url?: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | '2xl';
  /** Hidden from assistive technology when the store's name is written next to it. */
  decorative?: boolean;
}

export function StoreLogo({ name, url, size = 'md', decorative = false }: StoreLogoProps) {
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return (
    <Avatar.Root
      size={size}
      shape="rounded"
      colorPalette="brand"
      variant="subtle"
      flexShrink={0}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': `${name} logo` })}
    >
      <Avatar.Fallback aria-hidden fontWeight="bold">
        {initial}
      </Avatar.Fallback>
      {url && <Avatar.Image src={url} alt="" />}
    </Avatar.Root>
  );
}
