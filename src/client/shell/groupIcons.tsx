import {
  AccountBookOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  HomeOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  StarOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MenuGroup } from '../router/screenTypes';

export const GROUP_ICONS: Record<MenuGroup, ReactNode> = {
  common: <StarOutlined />,
  commodity: <AppstoreOutlined />,
  procurement: <ShoppingCartOutlined />,
  market: <ShopOutlined />,
  entrepot: <HomeOutlined />,
  financial: <AccountBookOutlined />,
  reportForms: <BarChartOutlined />,
  baseConfig: <SettingOutlined />,
  system: <ToolOutlined />,
};
