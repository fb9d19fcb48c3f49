import { NavLink, Link as RouterLink } from 'react-router-dom';
import { Menu, MenuItem } from '@mui/material';
import type { NavItem } from './nav-bar.tsx';

export interface NavMenuProps {
  id: string;
  anchor: HTMLElement | null;
  items: NavItem[];
  onClose(): void;
}

/** The navigation menu of narrow screens (nav-bar.tsx loads it the first time it opens). */
export function NavMenu({ id, anchor, items, onClose }: NavMenuProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {items.map((item) =>
        item.to ? (
          <MenuItem
            key={item.label}
            component={item.marksActive === false ? RouterLink : NavLink}
            to={item.to}
            onClick={onClose}
            sx={{ minWidth: 180 }}
          >
            {item.label}
          </MenuItem>
        ) : (
          <MenuItem
            key={item.label}
            onClick={() => {
              onClose();
              item.onSelect?.();
            }}
          >
            {item.label}
          </MenuItem>
        ),
      )}
    </Menu>
  );
}
